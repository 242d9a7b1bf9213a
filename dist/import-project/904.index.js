export const id = 904;
export const ids = [904];
export const modules = {

/***/ 2904:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   retryFailedRelations: () => (/* binding */ retryFailedRelations)
/* harmony export */ });
/* harmony import */ var _api_client_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(1414);
/* harmony import */ var _api_poll_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4200);
/* harmony import */ var _api_releases_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5727);
/* harmony import */ var _schema_relation_import_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3622);
/* harmony import */ var _connection_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(2388);





/** GitLab's single relation import: 16.11 behind the flag `single_relation_import`, on for everyone from 17.1. */
const SINCE = '16.11';
const GA = '17.1';
/**
 * `retry-failed-relations`: each relation kind that failed in `record`'s import re-imported, one after
 * another (GitLab runs one relation import per project at a time), from the same `archive` with
 * `POST /projects/import-relation`, and waited for until `deadline`. GitLab skips the items the project
 * holds, so only what failed is added. Kinds GitLab cannot re-import (labels, members...) are `skipped`;
 * before 16.11, or with the 16.11-17.0 flag off (a 404), nothing is tried and `unavailable` says so.
 */
async function retryFailedRelations(gitlab, record, archive, opts) {
    const { log, now } = opts;
    const kinds = [...new Set(record.failed_relations.map((f) => f.relation_name))];
    const importable = (k) => _schema_relation_import_js__WEBPACK_IMPORTED_MODULE_0__/* .IMPORTABLE_RELATIONS */ .OH.includes(k);
    const skipped = (relation, detail) => ({
        relation,
        outcome: 'skipped',
        detail,
        elapsedMs: 0,
    });
    const none = (why) => {
        log.warning(`retry-failed-relations: ${why}`);
        return { unavailable: why, retries: kinds.map((k) => skipped(k, 'not retried')) };
    };
    if (archive === undefined)
        return none("the relations can only be re-imported from a local 'archive' (GitLab needs the file uploaded)");
    const version = (await gitlab.version({ signal: opts.signal }).catch(() => undefined))?.version;
    if (version !== undefined && !(0,_api_releases_js__WEBPACK_IMPORTED_MODULE_1__/* .releaseAtLeast */ .I7)(version, SINCE))
        return none(`GitLab ${version} has no single relation import (POST /projects/import-relation is GitLab ${SINCE}+)`);
    const retries = [];
    for (const relation of kinds) {
        if (!importable(relation)) {
            retries.push(skipped(relation, `GitLab re-imports only ${_schema_relation_import_js__WEBPACK_IMPORTED_MODULE_0__/* .IMPORTABLE_RELATIONS */ .OH.join(', ')}`));
            continue;
        }
        const start = now();
        log.info(`Re-importing the ${relation} of ${record.path_with_namespace} from ${archive}`);
        let started;
        try {
            started = await (0,_api_poll_js__WEBPACK_IMPORTED_MODULE_2__/* .waitOutRateLimits */ .OD)(() => gitlab.projectImports.importRelation(archive, { path: record.path_with_namespace, relation }, { signal: opts.signal, timeoutMs: 0 }), { deadline: opts.deadline, signal: opts.signal, sleep: opts.sleep, now });
        }
        catch (err) {
            if (!(err instanceof _api_client_js__WEBPACK_IMPORTED_MODULE_3__/* .GitLabApiError */ .AT))
                throw err;
            if (err.status === 404 && version !== undefined && !(0,_api_releases_js__WEBPACK_IMPORTED_MODULE_1__/* .releaseAtLeast */ .I7)(version, GA))
                return {
                    unavailable: `GitLab ${version} keeps the single relation import behind the feature flag single_relation_import, which is off (404)`,
                    retries: [...retries, ...kinds.slice(retries.length).map((k) => skipped(k, 'not retried'))],
                };
            retries.push({
                relation,
                outcome: 'failed',
                detail: `refused: ${(0,_api_client_js__WEBPACK_IMPORTED_MODULE_3__/* .statusText */ .qS)(err)}`,
                elapsedMs: now() - start,
            });
            continue;
        }
        const waited = await gitlab.projectImports.waitForRelationImport(started, {
            timeoutMs: Math.max(0, opts.deadline - now()),
            intervalMs: opts.pollInterval,
            signal: opts.signal,
            sleep: opts.sleep,
            now,
        });
        const status = waited.tracker.status;
        const recovered = waited.ended === 'done' && status === 'finished';
        const detail = waited.ended === 'timeout' ? `still ${status} at 'timeout'` : status;
        log.info(`[${(0,_connection_js__WEBPACK_IMPORTED_MODULE_4__/* .formatDuration */ .a3)(now() - start)}] ${relation}: relation import ${detail}`);
        retries.push({ relation, outcome: recovered ? 'recovered' : 'failed', detail, elapsedMs: now() - start });
    }
    return { retries };
}


/***/ })

};
