import type { Tag, TagCreate, TagListQuery } from '../../../schema/repository.js'
import { readCommit } from '../../git/history.js'
import { parseTag, signatureAt, tagObject } from '../../git/trees.js'
import { isoNow } from '../../domain/clock.js'
import { validRefName } from '../../domain/git-ref-names.js'
import { exactMatchFirst, refSearch } from '../../domain/ref-search.js'
import { forbidden, messageError, notFound } from '../../grape/gitlab-errors.js'
import type { Page, PageOut } from '../../grape/pagination.js'
import { gitDate, presentCommit } from '../../present/repository.js'
import type { ProjectRow } from '../../store/projects.js'
import type { RefRow } from '../../store/repository.js'
import { Level, type Actor } from '../access.js'
import type { ServiceContext } from '../context.js'
import { BLANK_SHA, type RepositoryCore } from './core.js'
import type { RepositoryReads } from './reads.js'

/** `Gitlab::Checks::TagCheck::ERROR_MESSAGES`, which `Tags::CreateService`/`DestroyService` answer 400. */
const CREATE_PROTECTED = 'You are not allowed to create this tag as it is protected.'
const DELETE_PROTECTED =
  'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.'

/** The most tags one list sorts (GitLab sorts them all; a project here has few). */
const MAX_TAGS = 10_000

/**
 * Tags (`lib/api/tags.rb`, `app/finders/tags_finder.rb`, `app/services/tags/create_service.rb`): list (`search`, `order_by`
 * updated (the default), name or version, `sort`), get, create (lightweight, or annotated with a
 * `message`), delete. Writes need `push_code` (`admin_tag`: Developer); a protected tag's name
 * only its create level (`protected-tags.ts`), and its deletion a Maintainer too.
 */
export function tagService(ctx: ServiceContext, core: RepositoryCore, reads: RepositoryReads) {
  const { store, instance, clock, access } = ctx
  const repo = store.repository
  const objects = store.gitObjects

  const present = (project: ProjectRow, r: RefRow): Tag => {
    const tagSha = repo.tagObject(project.id, r.name)
    const tag = tagSha ? objects.get(tagSha) : undefined
    const fields = tag?.type === 'tag' ? parseTag(tag.body) : undefined
    const c = readCommit(objects, r.sha)
    return {
      name: r.name,
      message: fields ? fields.message.replace(/\n$/, '') : '',
      target: tagSha ?? r.sha,
      commit: c
        ? presentCommit(c, project.full_path, instance)
        : presentCommit(
            {
              sha: r.sha,
              tree: '',
              parents: [],
              message: '',
              author: { name: '', email: '', seconds: 0, offset: '+0000' },
              committer: { name: '', email: '', seconds: 0, offset: '+0000' },
            },
            project.full_path,
            instance,
          ),
      release: null,
      protected: core.tagProtections(project, r.name).length > 0,
      created_at: fields?.tagger ? gitDate(fields.tagger) : null,
    }
  }

  /** What `updated` orders by: the commit's date (GitLab: the tag's, falling back to the commit's). */
  const dateOf = (r: RefRow) => readCommit(objects, r.sha)?.committer.seconds ?? 0
  const version = (name: string) =>
    name
      .replace(/^v/, '')
      .split(/[.-]/)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p))
  const compareVersions = (a: string, b: string) => {
    const [x, y] = [version(a), version(b)]
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const [p, q] = [x[i] ?? -1, y[i] ?? -1]
      if (p === q) continue
      if (typeof p === 'number' && typeof q === 'number') return p - q
      return String(p) < String(q) ? -1 : 1
    }
    return 0
  }

  return {
    list(actor: Actor, projectRef: string, q: TagListQuery, page: Page): PageOut<Tag> {
      const project = reads.readable(actor, projectRef)
      const rows = repo.refs(project.id, 'tag', q.search, MAX_TAGS, 0)
      const orderBy = q.order_by ?? 'updated'
      const dates = new Map(rows.map((r) => [r.name, orderBy === 'updated' ? dateOf(r) : 0]))
      const compare =
        orderBy === 'name'
          ? (a: RefRow, b: RefRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
          : orderBy === 'version'
            ? (a: RefRow, b: RefRow) => compareVersions(a.name, b.name)
            : (a: RefRow, b: RefRow) => dates.get(a.name)! - dates.get(b.name)! || (a.name < b.name ? -1 : 1)
      rows.sort(compare)
      if ((q.sort ?? 'desc') === 'desc') rows.reverse()
      // `TagsFinder` sorts, then searches: the exact match leads whatever the order.
      exactMatchFirst(rows, refSearch(q.search).exact)
      return {
        items: rows.slice(page.offset, page.offset + page.perPage).map((r) => present(project, r)),
        page,
        total: rows.length,
      }
    },

    get(actor: Actor, projectRef: string, name: string): Tag {
      const project = reads.readable(actor, projectRef)
      const row = repo.ref(project.id, 'tag', name)
      if (!row) throw notFound('Tag')
      return present(project, row)
    },

    /**
     * `POST /repository/tags`: 400 `Tag name invalid`, 409 `Tag <name> already exists`, 400
     * `Target <ref> is invalid`. A `message` makes an annotated tag, tagged by the caller now.
     */
    create(actor: Actor, projectRef: string, input: TagCreate): Tag {
      const project = reads.readable(actor, projectRef)
      if (!reads.pushCode(actor, project)) throw forbidden()
      if (!validRefName(input.tag_name)) throw messageError(400, 'Tag name invalid')
      if (repo.ref(project.id, 'tag', input.tag_name))
        throw messageError(409, `Tag ${input.tag_name} already exists`)
      const sha = core.resolveCommit(project, input.ref)
      if (!sha) throw messageError(400, `Target ${input.ref} is invalid`)
      // The pre-receive check (`Gitlab::Checks::TagCheck#protected_tag_checks`), its message as a 400.
      if (!core.canCreateTag(actor, project, input.tag_name)) throw messageError(400, CREATE_PROTECTED)
      const user = actor.user!
      const message = input.message?.trim()
      store.transaction(() => {
        repo.setRef(project.id, 'tag', input.tag_name, sha)
        if (message) {
          const tagger = signatureAt(user.name, user.email ?? '', isoNow(clock))
          const tag = tagObject({ object: sha, type: 'commit', tag: input.tag_name, tagger, message })
          objects.put(tag)
          repo.setTagObject(project.id, input.tag_name, tag.sha)
        }
      })
      core.pushed({ project, kind: 'tag', ref: input.tag_name, before: BLANK_SHA, after: sha, user })
      return present(project, repo.ref(project.id, 'tag', input.tag_name)!)
    },

    remove(actor: Actor, projectRef: string, name: string): void {
      const project = reads.readable(actor, projectRef)
      if (!reads.pushCode(actor, project)) throw forbidden()
      const row = repo.ref(project.id, 'tag', name)
      if (!row) throw notFound('Tag')
      if (core.tagProtections(project, name).length > 0) {
        if (!access.atLeast(actor, project, Level.maintainer)) throw messageError(400, DELETE_PROTECTED)
        if (!core.canCreateTag(actor, project, name)) throw messageError(400, CREATE_PROTECTED)
      }
      store.transaction(() => {
        repo.deleteRef(project.id, 'tag', name)
        repo.deleteTagObject(project.id, name)
      })
      core.pushed({ project, kind: 'tag', ref: name, before: row.sha, after: BLANK_SHA, user: actor.user! })
    },
  }
}
export type TagService = ReturnType<typeof tagService>
