import { collect } from '../../src/api/client.js'
import { apiFailure, clientsOnSeed } from '../support/client-pool.js'
import { TOKENS, membersSeed } from '../server/routes/members-seed.js'

/* `client.projectMembers` and `client.groupMembers` against the reference server, every body checked against src/schema. */

const { as } = clientsOnSeed(membersSeed)

it("adds, reads, edits and removes a project's member, and lists direct and inherited members", async () => {
  const pat = as(TOKENS.pat)
  const otto = await as(TOKENS.otto).users.current()
  const made = await pat.projectMembers.add('acme/app', {
    user_id: otto.id,
    access_level: 30,
    expires_at: '2099-01-31',
  })
  expect(made).toMatchObject({ id: otto.id, username: 'otto', access_level: 30, expires_at: '2099-01-31' })
  expect(made.created_by).toMatchObject({ username: 'pat' })
  expect(await pat.projectMembers.get('acme/app', otto.id)).toEqual(made)
  expect(await pat.projectMembers.edit('acme/app', otto.id, { access_level: 20 })).toMatchObject({
    access_level: 20,
    expires_at: '2099-01-31',
  })
  const direct = await collect(pat.projectMembers.list('acme/app'))
  expect(direct.map((m) => m.username)).toEqual(['pat', 'otto'])
  const all = await collect(pat.projectMembers.listAll('acme/app', { search: 'OWNER' }))
  expect(all.map((m) => m.username)).toEqual(['olivia'])
  expect(
    await pat.projectMembers.getInherited('acme/app', (await as(TOKENS.olivia).users.current()).id),
  ).toMatchObject({ access_level: 50 })
  await pat.projectMembers.remove('acme/app', otto.id)
  expect(await apiFailure(pat.projectMembers.get('acme/app', otto.id))).toMatchObject({
    status: 404,
    body: { message: '404 Not found' },
  })
})

it("manages a group's members as its owner, with GitLab's refusals", async () => {
  const olivia = as(TOKENS.olivia)
  const otto = await as(TOKENS.otto).users.current()
  expect(await olivia.groupMembers.addMany('acme', { username: 'otto,rita', access_level: 10 })).toEqual({
    status: 'success',
  })
  const listed = await collect(olivia.groupMembers.list('acme', { user_ids: [otto.id] }))
  expect(listed).toEqual([expect.objectContaining({ username: 'otto', access_level: 10 })])
  expect(
    await apiFailure(olivia.groupMembers.add('acme', { user_id: otto.id, access_level: 10 })),
  ).toMatchObject({
    status: 409,
    body: { message: 'Member already exists' },
  })
  expect(await apiFailure(as(TOKENS.mark).groupMembers.remove('acme', otto.id))).toMatchObject({
    status: 403,
    body: { message: '403 Forbidden' },
  })
  await olivia.groupMembers.remove('acme', otto.id, { skip_subresources: true })
  expect((await collect(olivia.groupMembers.listAll('acme/sub'))).map((m) => m.username)).toEqual([
    'olivia',
    'mark',
    'dana',
    'rita',
  ])
})
