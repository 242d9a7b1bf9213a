import type { Db } from './db.js'
import type { MemberSource } from './members.js'
import { TOKEN_COLUMNS, type TokenRow } from './users.js'

/** Which tokens a list takes (`PersonalAccessTokensFinder`'s `state`): all, or active or inactive ones. */
export type TokenState = 'all' | 'active' | 'inactive'

/** A project or group access token: its bot's membership in the resource, with the token. */
export interface BotTokenRow extends TokenRow {
  access_level: number
}

/** One page of a token list, counted in SQL. */
export interface TokenPage<T> {
  rows: T[]
  total: number
}

/**
 * Bot users of project and group access tokens, and the paged token lists that need them or the
 * impersonation flag (users.ts has the tokens themselves). `now` (ISO time) tells an active token
 * from an expired one: a token expires at the start of its `expires_at` day.
 */
export function accessTokenTable(db: Db) {
  const insertBot = db.prepare('INSERT INTO bot_users (user_id, source_type, source_id) VALUES (?, ?, ?)')
  const botOf = db.prepare('SELECT source_type, source_id FROM bot_users WHERE user_id = ?')
  const botsOf = db
    .prepare('SELECT user_id FROM bot_users WHERE source_type = ? AND source_id = ? ORDER BY user_id')
    .pluck()
  const stateWhere: Record<TokenState, string> = {
    all: '',
    active: 'AND t.revoked = 0 AND (t.expires_at IS NULL OR t.expires_at > @now)',
    inactive: 'AND (t.revoked = 1 OR t.expires_at <= @now)',
  }
  const botFrom = `${TOKEN_COLUMNS.replace('SELECT ', 'SELECT m.access_level, ')}
     JOIN bot_users b ON b.user_id = t.user_id
     JOIN members m ON m.user_id = b.user_id AND m.source_type = b.source_type AND m.source_id = b.source_id
     WHERE b.source_type = @type AND b.source_id = @source`
  const listed = (from: string) =>
    Object.fromEntries(
      (Object.keys(stateWhere) as TokenState[]).map((state) => [
        state,
        {
          page: db.prepare(`${from} ${stateWhere[state]} ORDER BY t.id LIMIT @limit OFFSET @offset`),
          count: db.prepare(`SELECT COUNT(*) FROM (${from} ${stateWhere[state]})`).pluck(),
        },
      ]),
    ) as Record<TokenState, { page: ReturnType<Db['prepare']>; count: ReturnType<Db['prepare']> }>
  const botLists = listed(botFrom)
  const botToken = db.prepare(`${botFrom} AND t.id = @id`)
  const impersonationFrom = `${TOKEN_COLUMNS} WHERE t.user_id = @user AND k.impersonation = 1`
  const impersonationLists = listed(impersonationFrom)
  const impersonationToken = db.prepare(`${impersonationFrom} AND t.id = @id`)
  const page = <T>(
    lists: ReturnType<typeof listed>,
    state: TokenState,
    params: Record<string, string | number>,
    limit: number,
    offset: number,
  ): TokenPage<T> => ({
    rows: lists[state].page.all({ ...params, limit, offset }) as T[],
    total: Number(lists[state].count.get(params)),
  })
  const nowParam = (state: TokenState, now: string): Record<string, string> =>
    state === 'all' ? {} : { now }
  return {
    /** Marks `userId` as the bot of a project's or group's (`namespace`) access token. */
    addBot: (userId: number, type: MemberSource, sourceId: number) => insertBot.run(userId, type, sourceId),
    /** The resource a bot user belongs to; undefined for anyone else. */
    botOf: (userId: number) =>
      botOf.get(userId) as { source_type: MemberSource; source_id: number } | undefined,
    /** The bot users of a project's or group's (`namespace`) access tokens. */
    botsOf: (type: MemberSource, sourceId: number) => botsOf.all(type, sourceId) as number[],
    /** A page of a resource's access tokens, by id, with their bots' access levels. */
    botTokens: (
      type: MemberSource,
      source: number,
      state: TokenState,
      now: string,
      limit: number,
      offset: number,
    ) => page<BotTokenRow>(botLists, state, { type, source, ...nowParam(state, now) }, limit, offset),
    /** One of a resource's access tokens. */
    botToken: (type: MemberSource, source: number, id: number) =>
      botToken.get({ type, source, id }) as BotTokenRow | undefined,
    /** A page of a user's impersonation tokens, by id. */
    impersonationTokens: (user: number, state: TokenState, now: string, limit: number, offset: number) =>
      page<TokenRow>(impersonationLists, state, { user, ...nowParam(state, now) }, limit, offset),
    /** One of a user's impersonation tokens. */
    impersonationToken: (user: number, id: number) =>
      impersonationToken.get({ user, id }) as TokenRow | undefined,
  }
}
export type AccessTokenTable = ReturnType<typeof accessTokenTable>
