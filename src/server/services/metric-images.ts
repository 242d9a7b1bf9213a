import { renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs'
import { isIP } from 'node:net'
import { join } from 'node:path'
import type { MetricImage, MetricImageFields } from '../../schema/index.js'
import { forbidden, messageError } from '../grape/gitlab-errors.js'
import { presentMetricImage } from '../present/metric-images.js'
import type { MetricImageRow } from '../store/metric-images.js'
import { privateDir } from '../store/private-files.js'
import type { WorkDir } from '../store/work-dirs.js'
import type { ProjectRow } from '../store/projects.js'
import { Level, writable, type Actor } from './access.js'
import { isoNow } from '../domain/clock.js'
import { requireUser, type IssueDeps } from './issues/lookup.js'

/** GitLab's `IssuableMetricImage` rules (`ee/app/models/issuable_metric_image.rb`). */
export const METRIC_IMAGE_MAX_BYTES = 1024 * 1024
const EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp']
const MAX_URL = 255
const MAX_URL_TEXT = 128

const notAllowed = () => messageError(403, 'Not allowed!')
const imageNotFound = () => messageError(404, 'Metric image not found')

/** CarrierWave's filename sanitising: anything but word characters, dots, dashes and pluses becomes `_`. */
export const sanitizeFilename = (name: string) =>
  name.replace(/^.*[\\/]/, '').replace(/[^\w.+-]/g, '_') || 'file'

const LOCAL_HOSTS = /^(localhost|.*\.localhost)$/i
function localAddress(host: string): 'localhost' | 'the local network' | null {
  const h = host.replace(/^\[|\]$/g, '')
  if (LOCAL_HOSTS.test(h) || /^127\./.test(h) || h === '::1' || h === '0.0.0.0') return 'localhost'
  if (isIP(h) === 4 && /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.)/.test(h))
    return 'the local network'
  if (isIP(h) === 6 && /^(fc|fd|fe80)/i.test(h)) return 'the local network'
  return null
}

export interface Upload {
  /** Where the route streamed the file; moved into place on success, left for the caller otherwise. */
  path: string
  filename: string
}

/**
 * Incident metric images (`ee/lib/ee/api/issues.rb`); files live in `uploads.dir/<id>/<filename>`,
 * and each upload tells `uploads` it holds files (a reset empties it then).
 */
export function metricImageService(
  deps: IssueDeps,
  uploads: Pick<WorkDir, 'dir' | 'filled'>,
  allowLocalRequests: boolean,
) {
  const { dir } = uploads
  const { store, access, instance } = deps.ctx
  const fileOf = (row: MetricImageRow) => join(dir, String(row.id), row.filename)

  /** `url` and `url_text` problems in Rails' full-message words. */
  function fieldErrors(fields: MetricImageFields): string[] {
    const errors: string[] = []
    const url = fields.url ?? ''
    if ([...url].length > MAX_URL) errors.push(`Url is too long (maximum is ${MAX_URL} characters)`)
    if (url.trim() !== '') {
      let parsed: URL | undefined
      try {
        parsed = new URL(url)
      } catch {
        errors.push('Url is blocked: URI is invalid')
      }
      if (parsed && !['http:', 'https:'].includes(parsed.protocol))
        errors.push('Url is blocked: Only allowed schemes are http, https')
      else if (parsed && !allowLocalRequests) {
        const local = localAddress(parsed.hostname)
        if (local) errors.push(`Url is blocked: Requests to ${local} are not allowed`)
      }
    }
    if ([...(fields.url_text ?? '')].length > MAX_URL_TEXT)
      errors.push(`Url text is too long (maximum is ${MAX_URL_TEXT} characters)`)
    return errors
  }

  /**
   * Update and delete: Reporter and up (`create_issue & update_issue`, which an archived project takes
   * away), or the issue's author, even in an archived project (`is_author`, GitLab's `IssuablePolicy`).
   */
  const mayChange = (actor: Actor, project: ProjectRow, authorId: number) =>
    (writable(project) && access.atLeast(actor, project, Level.reporter)) ||
    (actor.id !== null && actor.id === authorId)

  const imageOf = (actor: Actor, project: ProjectRow, iid: number, imageId: number) => {
    const issue = deps.issues.findIssue(actor, project, iid)
    const image = store.metricImages.get(imageId)
    if (!image || image.issue_id !== issue.id) throw imageNotFound()
    if (!mayChange(actor, project, issue.author_id)) throw forbidden()
    return image
  }

  return {
    /** Where the upload route streams a file before `upload` moves it into place. */
    uploadDir: dir,
    /** The image's file on disk, when the actor may read its issue; undefined otherwise. */
    file(actor: Actor, imageId: number, filename: string): string | undefined {
      const image = store.metricImages.get(imageId)
      const issue = image && store.issues.get(image.issue_id)
      const project = issue && store.projects.get(issue.project_id)
      if (!image || !issue || !project || image.filename !== filename) return undefined
      if (!access.canReadProject(actor, project) || !deps.issues.canReadIssue(actor, project, issue))
        return undefined
      return fileOf(image)
    },

    /** `GET .../metric_images`: oldest first; an issue that is not an incident has none. */
    list(actor: Actor, project: ProjectRow, iid: number): MetricImage[] {
      const issue = deps.issues.findIssue(actor, project, iid)
      return store.metricImages.ofIssue(issue.id).map((row) => presentMetricImage(instance, row))
    },

    /**
     * `POST .../metric_images`: 201. 403 `Not allowed!` for an issue that is not an incident, a
     * caller below Reporter or an archived project (`create_issue & update_issue`); 403 `Validation failed: ...` for a file of another type or bad `url`.
     */
    upload(
      actor: Actor,
      project: ProjectRow,
      iid: number,
      file: Upload,
      fields: MetricImageFields,
    ): MetricImage {
      requireUser(actor)
      const issue = deps.issues.findIssue(actor, project, iid)
      if (
        issue.issue_type !== 'incident' ||
        !writable(project) ||
        !access.atLeast(actor, project, Level.reporter)
      )
        throw notAllowed()
      const filename = sanitizeFilename(file.filename)
      const ext = filename.includes('.') ? (filename.split('.').pop() as string).toLowerCase() : ''
      const errors = [
        ...(EXTENSIONS.includes(ext)
          ? []
          : [
              'File does not have a supported extension. Only png, jpg, jpeg, gif, bmp, tiff, ico, and webp are supported',
            ]),
        ...fieldErrors(fields),
      ]
      if (errors.length > 0) throw messageError(403, `Validation failed: ${errors.join(', ')}`)
      const now = isoNow(deps.ctx.clock)
      return store.transaction(() => {
        const id = store.metricImages.insert({
          issue_id: issue.id,
          filename,
          url: fields.url ?? null,
          url_text: fields.url_text ?? null,
          created_at: now,
        })
        const row = store.metricImages.get(id) as MetricImageRow
        uploads.filled()
        privateDir(join(dir, String(id)))
        renameSync(file.path, fileOf(row))
        return presentMetricImage(instance, row)
      })
    },

    /** `PUT .../metric_images/:metric_image_id`: 400 `Metric image could not be updated` on invalid fields. */
    update(
      actor: Actor,
      project: ProjectRow,
      iid: number,
      imageId: number,
      fields: MetricImageFields,
    ): MetricImage {
      requireUser(actor)
      const image = imageOf(actor, project, iid, imageId)
      if (fieldErrors(fields).length > 0) throw messageError(400, 'Metric image could not be updated')
      const url = fields.url !== undefined ? fields.url : image.url
      const urlText = fields.url_text !== undefined ? fields.url_text : image.url_text
      store.transaction(() => store.metricImages.update(image.id, url, urlText))
      return presentMetricImage(instance, store.metricImages.get(image.id) as MetricImageRow)
    },

    /** `DELETE .../metric_images/:metric_image_id`: 204; 400 `Metric image could not be deleted` when the file cannot be removed. */
    remove(actor: Actor, project: ProjectRow, iid: number, imageId: number): void {
      requireUser(actor)
      const image = imageOf(actor, project, iid, imageId)
      try {
        unlinkSync(fileOf(image))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          throw messageError(400, 'Metric image could not be deleted')
      }
      try {
        rmdirSync(join(dir, String(image.id)))
      } catch {
        // an emptied folder that lingers is harmless
      }
      store.transaction(() => store.metricImages.remove(image.id))
    },

    /** Removes the files of images whose rows went with their project (a deleted project). */
    discardFiles(images: readonly { id: number; filename: string }[]): void {
      for (const image of images) rmSync(join(dir, String(image.id)), { recursive: true, force: true })
    },
  }
}
export type MetricImageService = ReturnType<typeof metricImageService>
