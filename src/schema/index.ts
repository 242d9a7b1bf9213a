/** Every record and parameter schema, for the server, the client and the OpenAPI document. */
export * from './common.js'
export * from './issue.js'
export * from './label.js'
export * from './milestone.js'
export * from './namespace.js'
export * from './params.js'
export * from './user.js'
export * from './version.js'
