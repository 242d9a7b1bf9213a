import { s3ObjectUrl, signV4 } from '../../../src/server/jobs/import-s3.js'

/** The credentials, bucket and date of AWS's published S3 SigV4 examples (header-based authentication). */
const example = {
  method: 'GET' as const,
  region: 'us-east-1',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  now: new Date('2013-05-24T00:00:00Z'),
}
const signature = (path: string) =>
  signV4({ ...example, url: new URL(`https://examplebucket.s3.amazonaws.com${path}`) }).authorization

describe('signV4', () => {
  it("matches AWS's published S3 example (GET Object with Range)", () => {
    const headers = signV4({
      ...example,
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { range: 'bytes=0-9' },
    })
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })

  it("matches AWS's published S3 examples with a query (GET Bucket Lifecycle, GET Bucket)", () => {
    expect(signature('/?lifecycle')).toMatch(
      /Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543$/,
    )
    expect(signature('/?max-keys=2&prefix=J')).toMatch(
      /Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/,
    )
  })

  it('builds virtual-hosted URLs, or path-style ones on a configured endpoint', () => {
    expect(s3ObjectUrl('b', 'eu-west-1', 'dir/a b.tar.gz').href).toBe(
      'https://b.s3.eu-west-1.amazonaws.com/dir/a%20b.tar.gz',
    )
    expect(s3ObjectUrl('b', 'eu-west-1', 'k.tar.gz', 'http://127.0.0.1:9000/').href).toBe(
      'http://127.0.0.1:9000/b/k.tar.gz',
    )
  })
})
