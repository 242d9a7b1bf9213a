/** Migration 4: pipelines, jobs and job tokens (issue 5). Empty until that work lands. */
export default ``
