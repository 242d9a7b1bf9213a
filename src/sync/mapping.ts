/*
 * Field values from one side's vocabulary to the other's: labels through the map and prefix,
 * users through the user map, milestones by title. Pure; documented choices are in each comment.
 */
import type { FieldName, Fields, Side, SyncOptions } from './model.js'
import { fitTitle } from './render.js'

const sorted = (values: Iterable<string>) => [...new Set(values)].sort()

/** Whether a GitLab label mirrors a GitHub one: with a prefix, prefixed or mapped ones; else all. */
export function managedLabel(name: string, opts: SyncOptions): boolean {
  if (!opts.labelPrefix) return true
  return name.startsWith(opts.labelPrefix) || Object.values(opts.labelMap).includes(name)
}

/** GitHub label -> GitLab label: the map, else the prefix and the name. */
export const labelToGitLab = (name: string, opts: SyncOptions) =>
  opts.labelMap[name] ?? `${opts.labelPrefix}${name}`

/** GitLab label -> GitHub label: the map backwards, else without the prefix. */
export function labelToGitHub(name: string, opts: SyncOptions): string {
  const mapped = Object.entries(opts.labelMap).find(([, gl]) => gl === name)
  if (mapped) return mapped[0]
  return opts.labelPrefix && name.startsWith(opts.labelPrefix) ? name.slice(opts.labelPrefix.length) : name
}

/**
 * The value `field` should have on `to`, given the winner's value `value` and the target's current
 * value. Labels keep the target's unmanaged GitLab labels; users without a mapping (or without a
 * GitLab account) are left out; a milestone title the target lacks leaves the target's milestone as is.
 */
export function mapField<F extends FieldName>(
  field: F,
  value: Fields[F],
  current: Fields[F],
  to: Side,
  opts: SyncOptions,
): Fields[F] {
  switch (field) {
    case 'title':
      return fitTitle(value as string, to) as Fields[F]
    case 'labels': {
      const names = value as string[]
      if (to === 'gitlab') {
        const kept = (current as string[]).filter((l) => !managedLabel(l, opts))
        return sorted([...kept, ...names.map((l) => labelToGitLab(l, opts))]) as Fields[F]
      }
      return sorted(
        names.filter((l) => managedLabel(l, opts)).map((l) => labelToGitHub(l, opts)),
      ) as Fields[F]
    }
    case 'assignees': {
      const names = value as string[]
      if (to === 'gitlab') {
        const known = new Set(opts.gitlabUsers)
        return sorted(names.flatMap((u) => opts.userMap[u] ?? []).filter((u) => known.has(u))) as Fields[F]
      }
      const back = new Map(Object.entries(opts.userMap).map(([gh, gl]) => [gl, gh]))
      return sorted(names.flatMap((u) => back.get(u) ?? [])) as Fields[F]
    }
    case 'milestone': {
      const title = value as string | null
      if (title === null) return null as Fields[F]
      return (opts.milestones[to].includes(title) ? title : current) as Fields[F]
    }
    default:
      return value
  }
}

/** Stable comparison form of a field value. */
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
