export const id = 110;
export const ids = [110];
export const modules = {

/***/ 1110:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   octokit: () => (/* binding */ octokit)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3228);
/*
 * The GitHub client of the bundle: `@actions/github`'s Octokit (REST), pointed at $GITHUB_API_URL
 * (GitHub Enterprise Server too). Loaded on demand so that tests can inject their own.
 */

/** An Octokit for `token`; `baseUrl` defaults to $GITHUB_API_URL, else https://api.github.com. */
function octokit(token, baseUrl) {
    return (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__.getOctokit)(token, baseUrl ? { baseUrl } : {});
}


/***/ })

};
