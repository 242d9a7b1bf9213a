/** Migration 2: notes, to-dos, timelogs, metric images (issue 3). Empty until that work lands. */
export default ``
