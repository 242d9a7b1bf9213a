/** The fields every issuable row has: issues, merge requests and milestones. */
interface IssuableRow {
  id: number
  iid: number
  project_id: number
  title: string
  description: string | null
  state: string
  created_at: string
  updated_at: string
}

type IssuableFields<R extends IssuableRow> = Pick<R, keyof IssuableRow>

/**
 * The fields an issue, a merge request and a project milestone open with, in GitLab's order
 * (`Entities::IssuableEntity`, `Entities::Milestone`); spread first, so that the keys after follow.
 */
export const issuableFields = <R extends IssuableRow>(row: R): IssuableFields<R> => ({
  id: row.id,
  iid: row.iid,
  project_id: row.project_id,
  title: row.title,
  description: row.description,
  state: row.state,
  created_at: row.created_at,
  updated_at: row.updated_at,
})
