/**
 * Migration 30: forks (`lib/api/projects.rb` fork endpoints), GitLab's `fork_networks` and
 * `fork_network_members`. Every project of a network is a member, its root too (with no source); a
 * fork names the project it was forked from. A deleted project leaves: its own row goes, its forks
 * stay in the network with no source (`ON DELETE SET NULL`), and a deleted root leaves the network
 * rootless, as GitLab's `fork_networks.root_project_id` does. `IF NOT EXISTS`, as migration 10.
 */
export default `
  CREATE TABLE IF NOT EXISTS fork_networks (
    id INTEGER PRIMARY KEY,
    root_project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL
  );
  CREATE TABLE IF NOT EXISTS fork_network_members (
    project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    fork_network_id INTEGER NOT NULL REFERENCES fork_networks(id) ON DELETE CASCADE,
    forked_from_project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL
  );
  CREATE INDEX IF NOT EXISTS fork_network_members_source ON fork_network_members(forked_from_project_id);
  CREATE INDEX IF NOT EXISTS fork_network_members_network ON fork_network_members(fork_network_id);
  CREATE INDEX IF NOT EXISTS fork_networks_root ON fork_networks(root_project_id);
`
