import { systemClock } from '../domain/clock.js'
import type { RemoteFiles } from '../services/import-sources.js'
import { s3ObjectUrl, signV4 } from './import-s3.js'

/** The HEAD checks of remote imports, with undici: loaded on the first remote import, not at start-up. */
const remoteFile = () => import('./import-remote.js')

/** The import jobs' HTTP helpers, as the source checks of services/import-sources.ts use them. */
export const remoteFiles: RemoteFiles = {
  head: async (url, headers, allowLocal) => (await remoteFile()).headOf(url, headers, allowLocal),
  async refusal(headers) {
    const { validateRemoteFile, RemoteFileError } = await remoteFile()
    try {
      validateRemoteFile(headers)
    } catch (err) {
      if (err instanceof RemoteFileError) return err.message
      throw err
    }
    return undefined
  },
  s3Url: s3ObjectUrl,
  // The wall clock, not the server's: S3 checks a signature's time against its own.
  signHead: (url, source) => signV4({ method: 'HEAD', url, ...source, now: systemClock.now() }),
}
