import { faults } from './faults.js'
import { holdings } from './holdings.js'
import { hooks } from './hooks.js'
import { instance } from './instance.js'
import { requestLog } from './request-log.js'
import { reset } from './reset.js'
import type { EmulatorSection } from './section.js'

/** The emulator page's sections, in order: add a module's section here. */
export const SECTIONS: readonly EmulatorSection[] = [holdings, requestLog, faults, hooks, instance, reset]
