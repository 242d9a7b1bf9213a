export const id = 110;
export const ids = [110];
export const modules = {

/***/ 1110:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   describeWait: () => (/* binding */ describeWait),
/* harmony export */   octokit: () => (/* binding */ octokit)
/* harmony export */ });
/* harmony import */ var _actions_http_client_lib_proxy_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4988);
/* harmony import */ var _octokit_core__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(5194);
/* harmony import */ var _octokit_plugin_paginate_rest__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3779);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6856);
/* harmony import */ var bottleneck_light_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3251);
/*
 * The GitHub client of the bundle: Octokit (REST: `request` and pagination), pointed at
 * $GITHUB_API_URL (GitHub Enterprise Server too), with @octokit/plugin-throttling: writes one at a
 * time with a gap between them (GitHub's secondary limits on content creation), and a 403/429
 * rate-limit answer waited out (`Retry-After`, else `x-ratelimit-reset`) and retried.
 * Built from @octokit/core as @actions/github builds its own, without the generated REST methods
 * (unused here) and on Node's fetch; @actions/github's fetch, with its whole undici, loads only
 * behind a proxy (`proxiedFetch`). This module is a chunk of its own, loaded when sync-issues starts.
 */





/** Describes a wait for the log: `GitHub secondary rate limit on POST /repos/...: waiting 3 s (retry 1 of 3)`. */
const describeWait = (w) => `GitHub ${w.kind} rate limit on ${w.route}: waiting ${w.seconds} s (retry ${w.retry} of ${w.retries})`;
/**
 * The fetch of @actions/github when HTTPS_PROXY (HTTP_PROXY for http) applies to `baseUrl`, read
 * as @actions/github reads it (NO_PROXY, loopback addresses bypass); otherwise undefined, and
 * Octokit uses Node's own fetch.
 */
async function proxiedFetch(baseUrl) {
    if (!(0,_actions_http_client_lib_proxy_js__WEBPACK_IMPORTED_MODULE_0__.getProxyUrl)(new URL(baseUrl)))
        return undefined;
    const { getProxyFetch } = await __webpack_require__.e(/* import() */ 156).then(__webpack_require__.t.bind(__webpack_require__, 5156, 19));
    return getProxyFetch(baseUrl);
}
const GitHub = _octokit_core__WEBPACK_IMPORTED_MODULE_2__/* .Octokit */ .E.plugin(_octokit_plugin_paginate_rest__WEBPACK_IMPORTED_MODULE_3__/* .paginateRest */ .ud, _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_4__/* .throttling */ .A);
/** An Octokit for `token`, throttled as GitHub asks. */
async function octokit(token, options = {}) {
    const retries = options.retries ?? 3;
    const gap = options.writeGapMs ?? 1000;
    const baseUrl = options.baseUrl ?? 'https://api.github.com';
    // The input's gap between writes, also for those that notify (the plugin's defaults: 1 s, and 3 s).
    const spaced = () => new bottleneck_light_js__WEBPACK_IMPORTED_MODULE_1__.Group({ maxConcurrent: 1, minTime: gap });
    const onLimit = (kind) => (seconds, request, _octokit, retryCount) => {
        if (retryCount >= retries || seconds > (options.maxWaitSeconds ?? 900))
            return false;
        options.onWait?.({
            kind,
            seconds,
            route: `${request.method} ${request.url}`,
            retry: retryCount + 1,
            retries,
        });
        return true;
    };
    const fetch = await proxiedFetch(baseUrl);
    return new GitHub({
        auth: token,
        baseUrl,
        ...(fetch ? { request: { fetch } } : {}),
        throttle: {
            id: 'sync-issues',
            write: spaced(),
            notifications: spaced(),
            retryAfterBaseValue: options.msPerSecond ?? 1000,
            onRateLimit: onLimit('primary'),
            onSecondaryRateLimit: onLimit('secondary'),
        },
    });
}


/***/ })

};
