import { taskStatusNoun } from './releases.js'

/**
 * GitLab's Taskable text (`app/models/concerns/taskable.rb`): "1 of 1 checklist item completed",
 * "0 of 3 checklist items completed";
 * "0 of 0 tasks completed" before the release of RELEASE_RULES.checklistItemsWording (src/server/domain/releases.ts).
 */
export function taskStatusText(done: number, total: number, version: string): string {
  return `${done} of ${total} ${taskStatusNoun(version, total)} completed`
}

/** Counts Markdown checklist items (`- [ ]`, `* [x]`, `1. [X]`) outside code fences. */
export function countTasks(description: string | null): { total: number; done: number } {
  let total = 0
  let done = 0
  let fenced = false
  for (const line of (description ?? '').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) continue
    const m = /^\s*(?:[-+*]|\d+[.)])\s+\[([ xX])\](?:\s|$)/.exec(line)
    if (m) {
      total++
      if (m[1] !== ' ') done++
    }
  }
  return { total, done }
}
