import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request } from 'undici'
import {
  DEFAULT_ROOT_TOKEN,
  startServer,
  type RunningServer,
} from '../../../src/server/start/start-server.js'
import { widgetsSeed } from '../../support/seeds.js'
import { inspectDb } from '../../../src/server/store/inspect.js'

/* `startServer`, the programmatic emulator of `gitlab-actions/server`, as a test suite uses it. */

const examples = resolve(__dirname, '../../../examples/seed.yaml')

async function get(server: RunningServer, path: string, token: string | undefined = server.token) {
  const res = await request(`${server.apiUrl}${path}`, { headers: token ? { 'private-token': token } : {} })
  return { status: res.statusCode, body: (await res.body.json()) as unknown }
}
/** `iid title` of every issue of a project, by iid. */
const titles = async (server: RunningServer, project: string, token = server.token) => {
  const { body } = await get(server, `/projects/${encodeURIComponent(project)}/issues?state=all`, token)
  return (body as { iid: number; title: string }[])
    .sort((a, b) => a.iid - b.iid)
    .map((i) => `${i.iid} ${i.title}`)
}
const post = (server: RunningServer, path: string, json: unknown) =>
  request(`${server.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'private-token': server.token ?? '', 'content-type': 'application/json' },
    body: JSON.stringify(json),
  }).then(async (res) => ({
    status: res.statusCode,
    body: (await res.body.json()) as Record<string, unknown>,
  }))

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gla-start-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('startServer', () => {
  it('with no seed loads the built-in one: root with the known token, a group, a project and issues', async () => {
    const server = await startServer()
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.apiUrl).toBe(`${server.url}/api/v4`)
      expect(server.token).toBe(DEFAULT_ROOT_TOKEN)
      expect(await get(server, '/user')).toMatchObject({
        status: 200,
        body: { username: 'root', is_admin: true },
      })
      expect(await titles(server, 'demo/app')).toEqual([
        '1 Crash on start',
        '2 Add a dark mode',
        '3 Write the README',
      ])
    } finally {
      await server.close()
    }
  })

  it('reset() restores the start-up seed, with the same ids, and drops what seed(more) added', async () => {
    const server = await startServer({ seed: examples })
    try {
      const before = await titles(server, 'acme/widgets')
      const project = (await get(server, '/projects/acme%2Fwidgets')).body as { id: number }
      expect((await post(server, '/projects/acme%2Fwidgets/issues', { title: 'temporary' })).status).toBe(201)
      await server.seed({ users: [{ username: 'dave', token: 'glpat-dave-token' }] })
      expect((await get(server, '/user', 'glpat-dave-token')).status).toBe(200)
      for (let i = 0; i < 2; i++) {
        await server.reset()
        expect(await titles(server, 'acme/widgets')).toEqual(before)
        expect(await get(server, '/projects/acme%2Fwidgets')).toMatchObject({ body: { id: project.id } })
        expect((await get(server, '/user', 'glpat-dave-token')).status).toBe(401)
        await post(server, '/projects/acme%2Fwidgets/issues', { title: 'again' })
      }
    } finally {
      await server.close()
    }
  })

  it('takes a seed as YAML text or as an object', async () => {
    const fromText = await startServer({ seed: widgetsSeed })
    const fromObject = await startServer({
      seed: { users: [{ username: 'ann', admin: true, token: 'glpat-ann' }], projects: [{ path: 'ann/x' }] },
    })
    try {
      expect(fromText.token).toBe('glpat-root-token')
      expect((await titles(fromText, 'acme/widgets')).length).toBeGreaterThan(0)
      expect(fromObject.token).toBe('glpat-ann')
      expect(await get(fromObject, '/projects/ann%2Fx')).toMatchObject({ status: 200 })
    } finally {
      await fromText.close()
      await fromObject.close()
    }
  })

  it("'none' starts as a fresh GitLab: only root, with the well-known token; reset returns to it", async () => {
    const server = await startServer({ seed: 'none' })
    try {
      expect(server.token).toBe(DEFAULT_ROOT_TOKEN)
      const rows = () => inspectDb(server.server.store).prepare('SELECT username, admin FROM users').all()
      expect(rows()).toEqual([{ username: 'root', admin: 1 }])
      expect(inspectDb(server.server.store).prepare('SELECT COUNT(*) AS n FROM projects').get()).toEqual({
        n: 0,
      })
      expect(await get(server, '/user')).toMatchObject({
        status: 200,
        body: { username: 'root', name: 'Administrator', is_admin: true },
      })
      await server.seed({ users: [{ username: 'ann', admin: true, token: 'glpat-ann' }] })
      await server.reset()
      expect((await get(server, '/user', 'glpat-ann')).status).toBe(401)
      expect(rows()).toEqual([{ username: 'root', admin: 1 }])
      expect((await get(server, '/user')).status).toBe(200)
    } finally {
      await server.close()
    }
  })

  it("'none' with a data directory: users and tokens made through the API survive a restart", async () => {
    const first = await startServer({ seed: 'none', data: dir })
    let token: string
    try {
      const user = await post(first, '/users', {
        email: 'pat@example.com',
        username: 'pat',
        name: 'Pat',
        force_random_password: true,
      })
      expect(user.status).toBe(201)
      const made = await post(first, `/users/${String(user.body.id)}/personal_access_tokens`, {
        name: 'suite',
        scopes: ['api'],
      })
      expect(made.status).toBe(201)
      token = String(made.body.token)
    } finally {
      await first.close()
    }
    const second = await startServer({ seed: 'none', data: dir })
    try {
      expect(second.seeded).toBe(false)
      expect(second.token).toBe(DEFAULT_ROOT_TOKEN)
      expect(await get(second, '/user', token)).toMatchObject({ status: 200, body: { username: 'pat' } })
    } finally {
      await second.close()
    }
  })

  it("'none' off loopback gives root a random token, and refuses the well-known one", async () => {
    const server = await startServer({ seed: 'none', host: '0.0.0.0' })
    try {
      expect(server.token).toMatch(/^glpat-[\w-]{20}$/)
      expect(await get(server, '/user')).toMatchObject({ status: 200, body: { username: 'root' } })
      expect((await get(server, '/user', DEFAULT_ROOT_TOKEN)).status).toBe(401)
    } finally {
      await server.close()
    }
  })

  it('runs on the clock it is given: seeded and new records, the Date header, time moved on', async () => {
    const clock = { t: Date.parse('2030-01-02T03:04:05.678Z'), now: () => new Date(clock.t) }
    const server = await startServer({ clock })
    try {
      const res = await request(`${server.apiUrl}/projects/demo%2Fapp/issues?per_page=1`, {
        headers: { 'private-token': server.token ?? '' },
      })
      expect(res.headers.date).toBe('Wed, 02 Jan 2030 03:04:05 GMT')
      const [seeded] = (await res.body.json()) as { created_at: string }[]
      expect(seeded?.created_at).toBe('2030-01-02T03:04:05.678Z')
      clock.t += 90_000
      const created = await post(server, '/projects/demo%2Fapp/issues', { title: 'Later' })
      expect(created).toMatchObject({
        status: 201,
        body: { created_at: '2030-01-02T03:05:35.678Z', updated_at: '2030-01-02T03:05:35.678Z' },
      })
    } finally {
      await server.close()
    }
  })

  it('rejects a bad seed, at start or in seed(more), with the message the CLI prints', async () => {
    const file = join(dir, 'bad.yaml')
    writeFileSync(
      file,
      'users:\n  - username: root\nprojects:\n  - path: root/x\n    issues:\n      - title: t\n        state: sleeping\n',
    )
    await expect(startServer({ seed: file })).rejects.toThrow(
      `${file}: projects[0].issues[0].state: expected opened or closed`,
    )
    await expect(startServer({ seed: join(dir, 'missing.yaml') })).rejects.toThrow(
      'cannot read the file (ENOENT)',
    )
    const server = await startServer()
    try {
      await expect(server.seed({ projects: [{ path: 'nobody/x' }] })).rejects.toThrow(
        'seed: projects[0].path: unknown namespace nobody (not a listed group or user)',
      )
      await expect(server.seed('users:\n  - username: [\n')).rejects.toThrow(/^seed: line 3, column 1: /)
    } finally {
      await server.close()
    }
  })
})

describe('startServer off loopback with the built-in seed', () => {
  it('gives root a random token on 0.0.0.0 and ::, and refuses the well-known ones', async () => {
    const tokens: string[] = []
    for (const host of ['0.0.0.0', '::']) {
      const server = await startServer({ host })
      try {
        expect(server.token).toMatch(/^glpat-[\w-]{20}$/)
        tokens.push(server.token!)
        expect(await get(server, '/user')).toMatchObject({ status: 200, body: { username: 'root' } })
        for (const known of [DEFAULT_ROOT_TOKEN, 'glpat-emulator-alice-token'])
          expect((await get(server, '/user', known)).status).toBe(401)
        // The rest of the built-in seed is there, and a reset keeps root's token.
        expect(await titles(server, 'demo/app')).toHaveLength(3)
        await server.reset()
        expect((await get(server, '/user')).status).toBe(200)
      } finally {
        await server.close()
      }
    }
    expect(tokens[0]).not.toBe(tokens[1])
  })

  it('gives the trigger a random token too: not one derived from the time of seeding', async () => {
    const triggerToken = async (host: string) => {
      const server = await startServer({ host, clock: { now: () => new Date('2030-01-02T03:04:05Z') } })
      try {
        const { body } = await get(server, '/projects/demo%2Fapp/triggers')
        return (body as { token: string }[])[0]?.token
      } finally {
        await server.close()
      }
    }
    // On loopback the same clock gives the same token; off loopback, two starts give two tokens.
    expect(await triggerToken('127.0.0.1')).toBe(await triggerToken('127.0.0.1'))
    const [one, two] = [await triggerToken('0.0.0.0'), await triggerToken('0.0.0.0')]
    expect(one).toMatch(/^glptt-[0-9a-f]{40}$/)
    expect(one).not.toBe(two)
  })

  it('keeps a seed that names its tokens, and the well-known token on every loopback address', async () => {
    const seeded = await startServer({ host: '0.0.0.0', seed: widgetsSeed })
    try {
      expect(seeded.token).toBe('glpat-root-token')
      expect((await get(seeded, '/user')).status).toBe(200)
    } finally {
      await seeded.close()
    }
    for (const host of ['127.0.0.2', 'localhost']) {
      const server = await startServer({ host })
      try {
        expect(server.token).toBe(DEFAULT_ROOT_TOKEN)
        expect((await get(server, '/user')).status).toBe(200)
      } finally {
        await server.close()
      }
    }
  })

  it('a data directory restarted off loopback hands out the token of its first start', async () => {
    const first = await startServer({ host: '0.0.0.0', data: dir })
    const token = first.token
    await first.close()
    const second = await startServer({ host: '0.0.0.0', data: dir })
    try {
      expect(second.seeded).toBe(false)
      expect(second.token).toBe(token)
      expect((await get(second, '/user')).status).toBe(200)
    } finally {
      await second.close()
    }
  })

  it('a data directory of an older release, without the seed tokens kept apart, reads them from its seed and keeps them', async () => {
    const first = await startServer({ host: '0.0.0.0', data: dir })
    const { token, triggerToken } = first
    inspectDb(first.server.store)
      .prepare("DELETE FROM emulator_meta WHERE key = 'seed_tokens_encrypted'")
      .run()
    await first.close()
    for (const round of [1, 2]) {
      const again = await startServer({ host: '0.0.0.0', data: dir })
      try {
        expect([round, again.token, again.triggerToken]).toEqual([round, token, triggerToken])
        const keys = inspectDb(again.server.store).prepare('SELECT key FROM emulator_meta').pluck().all()
        expect(keys).toContain('seed_tokens_encrypted')
      } finally {
        await again.close()
      }
    }
  })
})

describe('startServer on a data directory', () => {
  it('resets to the seed the directory was first given, also after a restart with another seed', async () => {
    const first = await startServer({ seed: widgetsSeed, data: dir })
    await first.close()
    const second = await startServer({ data: dir })
    try {
      expect(second.seeded).toBe(false)
      const reset = await request(`${second.url}/-/emulator/reset`, {
        method: 'POST',
        headers: { 'private-token': 'glpat-root-token' },
      })
      expect(reset.statusCode).toBe(200)
      await reset.body.dump()
      expect((await get(second, '/user', 'glpat-root-token')).status).toBe(200)
      expect((await get(second, '/user', DEFAULT_ROOT_TOKEN)).status).toBe(401)
      expect(await titles(second, 'acme/widgets', 'glpat-root-token')).toContain('1 Crash on start')
    } finally {
      await second.close()
    }
  })

  it('started without a seed, a reset keeps the administrator, also after a restart', async () => {
    const first = await startServer({ data: dir })
    const reset = await request(`${first.url}/-/emulator/reset`, {
      method: 'POST',
      headers: { 'private-token': DEFAULT_ROOT_TOKEN },
    })
    expect(reset.statusCode).toBe(200)
    await reset.body.dump()
    expect((await get(first, '/user', DEFAULT_ROOT_TOKEN)).status).toBe(200)
    await first.close()
    const second = await startServer({ data: dir })
    try {
      expect((await get(second, '/user', DEFAULT_ROOT_TOKEN)).status).toBe(200)
      await second.reset()
      expect((await get(second, '/user', DEFAULT_ROOT_TOKEN)).status).toBe(200)
    } finally {
      await second.close()
    }
  })
})
