/** Migration 3: project exports and imports (issue 4). Empty until that work lands. */
export default ``
