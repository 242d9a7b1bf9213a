import { Type } from '@sinclair/typebox'
import {
  AcceptedMessage,
  Branch,
  BranchCreate,
  BranchListQuery,
  ProtectBranch,
  ProtectedBranch,
  ProtectedBranchQuery,
  Tag,
  TagCreate,
  TagListQuery,
  TreeObject,
  TreeQuery,
} from '../../schema/index.js'
import { pageOf } from '../grape/pagination.js'
import type { ApiContext } from './context.js'
import { IdPath } from './paths.js'

const BranchPath = Type.Object({ id: Type.String(), branch: Type.String() })
const NamePath = Type.Object({ id: Type.String(), name: Type.String() })
const TagPath = Type.Object({ id: Type.String(), tag_name: Type.String() })

/**
 * The tree (`lib/api/repositories.rb`), branches (`lib/api/branches.rb`), protected branches
 * (`lib/api/protected_branches.rb`) and tags (`lib/api/tags.rb`).
 */
export function repositoryRefRoutes(api: ApiContext): void {
  const { route } = api
  const { tree, branches, tags } = api.services.repository

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/tree',
      summary: 'List a folder at a ref (recursive; offset or keyset pages)',
      pathParams: IdPath,
      input: TreeQuery,
      response: { 200: Type.Array(TreeObject) },
    },
    (h) => h.sendPage(tree.list(h.actor, h.path.id, h.params, pageOf(h.params))),
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/branches',
      // A CI/CD job token reads it (doc/ci/jobs/ci_job_token.md), in its own project only.
      jobToken: true,
      summary: 'List branches by name (search)',
      pathParams: IdPath,
      input: BranchListQuery,
      response: { 200: Type.Array(Branch) },
    },
    (h) => h.sendPage(branches.list(h.actor, h.path.id, h.params, pageOf(h.params))),
  )
  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/branches/:branch',
      summary: 'Read a branch',
      pathParams: BranchPath,
      response: { 200: Branch },
    },
    (h) => branches.get(h.actor, h.path.id, h.path.branch),
  )
  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/repository/branches',
      summary: 'Create a branch at a ref (Developer)',
      auth: 'required',
      pathParams: IdPath,
      input: BranchCreate,
      response: { 201: Branch },
    },
    (h) => h.reply.code(201).send(branches.create(h.actor, h.path.id, h.params)),
  )
  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/repository/branches/:branch',
      summary: 'Delete a branch (not the default one; a protected one: Maintainer)',
      auth: 'required',
      errors: [405],
      pathParams: BranchPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      branches.remove(h.actor, h.path.id, h.path.branch)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/repository/merged_branches',
      summary:
        'Delete the branches merged into the default branch, but not protected ones or those of open merge requests (202 to code readers; Developers delete)',
      auth: 'required',
      pathParams: IdPath,
      response: { 202: AcceptedMessage },
    },
    (h) => {
      branches.removeMerged(h.actor, h.path.id)
      return h.reply.code(202).send({ message: '202 Accepted' })
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/protected_branches',
      summary: 'List protected branches (Maintainer)',
      auth: 'required',
      pathParams: IdPath,
      input: ProtectedBranchQuery,
      response: { 200: Type.Array(ProtectedBranch) },
    },
    (h) => h.sendPage(branches.listProtected(h.actor, h.path.id, h.params, pageOf(h.params))),
  )
  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/protected_branches/:name',
      summary: 'Read a protected branch (Maintainer)',
      auth: 'required',
      pathParams: NamePath,
      response: { 200: ProtectedBranch },
    },
    (h) => branches.getProtected(h.actor, h.path.id, h.path.name),
  )
  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/protected_branches',
      summary: 'Protect a branch or wildcard (Maintainer)',
      auth: 'required',
      errors: [409],
      pathParams: IdPath,
      input: ProtectBranch,
      response: { 201: ProtectedBranch },
    },
    (h) => h.reply.code(201).send(branches.protect(h.actor, h.path.id, h.params)),
  )
  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/protected_branches/:name',
      summary: 'Unprotect a branch (Maintainer)',
      auth: 'required',
      pathParams: NamePath,
      response: { 204: Type.Null() },
    },
    (h) => {
      branches.unprotect(h.actor, h.path.id, h.path.name)
      return h.reply.code(204).send()
    },
  )

  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/tags',
      // A CI/CD job token reads it (doc/ci/jobs/ci_job_token.md), in its own project only.
      jobToken: true,
      summary: 'List tags (order_by updated, name or version; search)',
      pathParams: IdPath,
      input: TagListQuery,
      response: { 200: Type.Array(Tag) },
    },
    (h) => h.sendPage(tags.list(h.actor, h.path.id, h.params, pageOf(h.params))),
  )
  route(
    {
      method: 'GET',
      url: '/api/v4/projects/:id/repository/tags/:tag_name',
      summary: 'Read a tag',
      pathParams: TagPath,
      response: { 200: Tag },
    },
    (h) => tags.get(h.actor, h.path.id, h.path.tag_name),
  )
  route(
    {
      method: 'POST',
      url: '/api/v4/projects/:id/repository/tags',
      summary: 'Create a tag at a ref; a message makes it annotated (Developer)',
      auth: 'required',
      errors: [409],
      pathParams: IdPath,
      input: TagCreate,
      response: { 201: Tag },
    },
    (h) => h.reply.code(201).send(tags.create(h.actor, h.path.id, h.params)),
  )
  route(
    {
      method: 'DELETE',
      url: '/api/v4/projects/:id/repository/tags/:tag_name',
      summary: 'Delete a tag (Developer)',
      auth: 'required',
      pathParams: TagPath,
      response: { 204: Type.Null() },
    },
    (h) => {
      tags.remove(h.actor, h.path.id, h.path.tag_name)
      return h.reply.code(204).send()
    },
  )
}
