import type { RemoteImportParams, S3ImportParams } from '../../schema/index.js'
import { messageError } from '../grape/gitlab-errors.js'
import type { ImportPlan } from './imports.js'
import { BlockedUrlError, checkUrl } from '../outbound/outbound-url.js'

/** The HTTP helpers of the import jobs that the source checks use (start/open-state.ts hands them in). */
export interface RemoteFiles {
  /** The status and headers of a HEAD of `url`; `allowLocal` lets it reach local addresses. */
  head(
    url: URL,
    headers: Record<string, string>,
    allowLocal: boolean,
  ): Promise<{ status: number; headers: Record<string, string> }>
  /** GitLab's `RemoteFileValidator` on a HEAD's headers: its refusal, or undefined. */
  refusal(headers: Record<string, string>): Promise<string | undefined>
  /** The object's URL: path-style under `endpoint`, else AWS's virtual-hosted style. */
  s3Url(bucket: string, region: string, key: string, endpoint?: string): URL
  /** The SigV4 headers of a HEAD of `url`. */
  signHead(
    url: URL,
    source: { region: string; accessKeyId: string; secretAccessKey: string },
  ): Record<string, string>
}

/** A source to import from, and the check `ImportService.create` runs before it writes anything. */
export interface CheckedSource {
  source: ImportPlan
  check(): Promise<void>
}

/**
 * The sources of `remote-import` and `remote-import-s3` (`lib/api/project_import.rb`): the URL
 * checked (`UrlBlocker`), the file's HEAD read, and refusals answered with GitLab's 400 messages.
 */
export function importSources(remote: RemoteFiles, options: { allowLocal: boolean; s3Endpoint?: string }) {
  const { allowLocal, s3Endpoint } = options
  const remoteError = (err: unknown, prefix: string): never => {
    const cause = (err as { cause?: unknown }).cause
    if (err instanceof BlockedUrlError || cause instanceof BlockedUrlError)
      throw messageError(
        400,
        `File url is blocked: ${(err instanceof BlockedUrlError ? err : (cause as Error)).message}`,
      )
    throw messageError(400, `${prefix}${(err as Error).message}`)
  }
  const acceptRemoteFile = async (headers: Record<string, string>) => {
    const refusal = await remote.refusal(headers)
    if (refusal !== undefined) throw messageError(400, refusal)
  }

  return {
    /** An archive at a URL; a GET bringing more than its HEAD announced is cut off while streaming. */
    url(params: RemoteImportParams): CheckedSource {
      const source: { kind: 'url'; url: string; maxBytes?: number } = { kind: 'url', url: params.url }
      const check = async () => {
        let url: URL
        try {
          url = checkUrl(params.url, allowLocal ? ['http', 'https'] : ['https'], allowLocal)
        } catch (err) {
          return remoteError(err, '')
        }
        const head = await remote
          .head(url, {}, allowLocal)
          .catch((err) => remoteError(err, 'Failed to retrive headers: '))
        if (head.headers.server === 'AmazonS3' && head.headers['x-amz-request-id'])
          throw messageError(400, 'To import from AWS S3 use `projects/remote-import-s3`')
        await acceptRemoteFile(head.headers)
        source.maxBytes = Number(head.headers['content-length'])
      }
      return { source, check }
    },

    /** An archive in an S3 bucket, its HEAD signed with the caller's keys. */
    s3(p: S3ImportParams): CheckedSource {
      const source = {
        kind: 's3' as const,
        region: p.region,
        bucket: p.bucket_name,
        key: p.file_key,
        accessKeyId: p.access_key_id,
        secretAccessKey: p.secret_access_key,
        endpoint: s3Endpoint,
      }
      const check = async () => {
        for (const [value, label] of [
          [p.region, 'Region'],
          [p.bucket_name, 'Bucket name'],
          [p.file_key, 'File key'],
          [p.access_key_id, 'Access key id'],
          [p.secret_access_key, 'Secret access key'],
        ] as const)
          if (value.trim() === '') throw messageError(400, `${label} can't be blank`)
        const failed = `Failed to open '${p.file_key}' in '${p.bucket_name}': `
        let url: URL
        try {
          url = remote.s3Url(p.bucket_name, p.region, p.file_key, s3Endpoint)
        } catch {
          // A region or bucket that cannot form a host name: the client's mistake, not a 500.
          throw messageError(400, `${failed}invalid region or bucket name`)
        }
        const head = await remote
          .head(url, remote.signHead(url, source), allowLocal || s3Endpoint !== undefined)
          .catch((err) => remoteError(err, failed))
        if (head.status === 404)
          throw messageError(400, `File not found '${p.file_key}' in '${p.bucket_name}'`)
        if (head.status < 200 || head.status > 299) throw messageError(400, `${failed}HTTP ${head.status}`)
        await acceptRemoteFile(head.headers)
      }
      return { source, check }
    },
  }
}
export type ImportSources = ReturnType<typeof importSources>
