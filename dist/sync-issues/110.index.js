export const id = 110;
export const ids = [110];
export const modules = {

/***/ 1110:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   describeWait: () => (/* binding */ describeWait),
/* harmony export */   octokit: () => (/* binding */ octokit)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3228);
/* harmony import */ var _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6856);
/* harmony import */ var bottleneck_light_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3251);
/*
 * The GitHub client of the bundle: `@actions/github`'s Octokit (REST), pointed at $GITHUB_API_URL
 * (GitHub Enterprise Server too), with @octokit/plugin-throttling: writes one at a time with a gap
 * between them (GitHub's secondary limits on content creation), and a 403/429 rate-limit answer
 * waited out (`Retry-After`, else `x-ratelimit-reset`) and retried.
 */



/** Describes a wait for the log: `GitHub secondary rate limit on POST /repos/...: waiting 3 s (retry 1 of 3)`. */
const describeWait = (w) => `GitHub ${w.kind} rate limit on ${w.route}: waiting ${w.seconds} s (retry ${w.retry} of ${w.retries})`;
/** An Octokit for `token`, throttled as GitHub asks. */
function octokit(token, options = {}) {
    const retries = options.retries ?? 3;
    const gap = options.writeGapMs ?? 1000;
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
    return (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__.getOctokit)(token, {
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        throttle: {
            id: 'sync-issues',
            write: spaced(),
            notifications: spaced(),
            retryAfterBaseValue: options.msPerSecond ?? 1000,
            onRateLimit: onLimit('primary'),
            onSecondaryRateLimit: onLimit('secondary'),
        },
    }, _octokit_plugin_throttling__WEBPACK_IMPORTED_MODULE_2__/* .throttling */ .A);
}


/***/ })

};
