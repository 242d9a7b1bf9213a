/**
 * What the whole-world client suites see (test/clients/gitbeaker-world.test.ts and
 * python_gitlab_whole_world.py): one world built through the API from a fresh instance, so the same
 * answers through either client, again after a reset.
 */
export const wholeWorldAnswers = {
  users: [2, 3], // root is 1
  groups: ['acme', 'acme/backend', true],
  // GitLab keeps a name that is a valid path as the path (Projects::CreateService#set_project_name_from_path).
  project: [1, 'acme/backend/Widgets', 'main'],
  issues: [1, 2],
  reporter: {
    issues: [
      [1, 'Crash on start', ['bug'], 1],
      [2, 'Dark mode', ['feature'], 0],
    ],
    links: [[2, 'relates_to']],
    thread: [
      ['mia', 'Seen on 1.2'],
      ['rex', 'Me too'],
    ],
    note_emoji: ['heart'],
    milestone_issues: ['Crash on start'],
    // app/policies/project_policy.rb: reporters manage labels (`admin_label`); deleting an issue
    // (`destroy_issue`) is for planners and owners, triggers (`admin_build`) and exports
    // (`admin_project`) for maintainers.
    label: 'triage',
    remove: [403, '403 Forbidden'],
    trigger: [403, '403 Forbidden'],
    export: [403, '403 Forbidden'],
  },
  restored: [
    'finished',
    [
      [1, 'Crash on start', ['bug']],
      [2, 'Dark mode', ['feature']],
    ],
  ],
  // Ci::CreatePipelineService's `Config::Content`: no `.gitlab-ci.yml` at the commit, nothing kept.
  missing_config: [400, { base: ['Missing CI config file'] }],
  pipeline: ['main', 'trigger'],
  // root made the group, so owns it; the others come through the group and the subgroup.
  members: [
    ['mia', 40],
    ['rex', 20],
    ['root', 50],
  ],
}
