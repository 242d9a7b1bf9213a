import { Type, type Static } from '@sinclair/typebox'
import { Visibility } from './common.js'
import { boolParam } from './params.js'

/**
 * `POST /projects/:id/fork` (lib/api/projects.rb): where the fork goes (`namespace_id`, else
 * `namespace_path`, else the deprecated `namespace`, an id or a path; default the caller's own),
 * its name, path, description and visibility (default the source's), and `branches`, the one
 * branch to fork (all branches and tags when absent).
 */
export const ProjectFork = Type.Object(
  {
    namespace_id: Type.Optional(Type.Integer()),
    namespace_path: Type.Optional(Type.String()),
    namespace: Type.Optional(Type.String({ deprecated: true })),
    path: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    visibility: Type.Optional(Visibility),
    branches: Type.Optional(Type.String()),
    mr_default_target_self: Type.Optional(boolParam()),
  },
  { title: 'ProjectFork' },
)
export type ProjectFork = Static<typeof ProjectFork>
