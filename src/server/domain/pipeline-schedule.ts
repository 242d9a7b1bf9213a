/** How long a new pipeline stays `created`, and each job `pending`, before it moves on (our choice). */
export const CREATED_MS = 500
export const QUEUE_MS = 500
