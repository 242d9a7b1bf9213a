/*
 * Incident metric images (`ee/lib/ee/api/issues.rb`): GitLab EE, issues of type `incident` only.
 * Uploads stream the file from disk with its length (multipart.ts); they are never read whole.
 */
import { Type } from '@sinclair/typebox'
import type { ResourceRef } from '../schema/common.js'
import { imageType, MetricImage, type MetricImageFields } from '../schema/metric-image.js'
import type { CallOptions, Http } from './http.js'
import { streamedMultipart, type FormField } from './multipart.js'
import { path } from './path.js'

/** Options of an upload: those of a call, and the file name to send (default: the file's own). */
export interface MetricImageUploadOptions extends Omit<CallOptions, 'json' | 'body'> {
  filename?: string
}

/** The metric-images group of the client. Every call throws GitLabApiError with GitLab's status and body. */
export function metricImages(http: Http) {
  const base = (project: ResourceRef, iid: number) => path`/projects/${project}/issues/${iid}/metric_images`
  return {
    /**
     * `POST .../metric_images` (multipart `file`, `url`, `url_text`) -> 201 with the image; its
     * `file_path` downloads the file. The file streams from disk with a known length (rejects
     * before sending when it is missing). 403 `Not allowed!` for an issue that is not an incident or
     * a caller below Reporter; 403 `Validation failed: ...` for a file of another type or a bad
     * `url`; 400 `400 Bad request - File is too large` above GitLab's 1 MB.
     * A streamed body is never retried (a 429 reaches the caller).
     */
    upload: async (
      project: ResourceRef,
      iid: number,
      file: string,
      fields: MetricImageFields = {},
      options: MetricImageUploadOptions = {},
    ) => {
      const { filename, ...call } = options
      const form: FormField[] = []
      if (fields.url !== undefined) form.push(['url', fields.url])
      if (fields.url_text !== undefined) form.push(['url_text', fields.url_text])
      const name = filename ?? file
      const body = await streamedMultipart(form, {
        field: 'file',
        path: file,
        filename,
        contentType: imageType(name),
      })
      return http.request('POST', base(project, iid), { ...call, body, response: MetricImage })
    },
    /** `GET .../metric_images`: every image of the incident, oldest first (GitLab does not paginate it). */
    list: (project: ResourceRef, iid: number, options: CallOptions = {}) =>
      http.request('GET', base(project, iid), { ...options, response: Type.Array(MetricImage) }),
    /**
     * `PUT .../metric_images/:metric_image_id`: changes `url` and `url_text`. 404 `Metric image not
     * found`; 400 `Metric image could not be updated` for a bad `url` or an over-long text.
     */
    update: (
      project: ResourceRef,
      iid: number,
      imageId: number,
      fields: MetricImageFields,
      options: CallOptions = {},
    ) =>
      http.request('PUT', path`/projects/${project}/issues/${iid}/metric_images/${imageId}`, {
        ...options,
        json: fields,
        response: MetricImage,
      }),
    /**
     * `DELETE .../metric_images/:metric_image_id` -> 204. 404 `Metric image not found`; 400 `Metric
     * image could not be deleted` when GitLab cannot remove the file.
     */
    remove: (project: ResourceRef, iid: number, imageId: number, options: CallOptions = {}): Promise<void> =>
      http.request<void>(
        'DELETE',
        path`/projects/${project}/issues/${iid}/metric_images/${imageId}`,
        options,
      ),
  }
}
/** The type of `client.metricImages`. */
export type MetricImagesApi = ReturnType<typeof metricImages>
