export const id = 656;
export const ids = [656];
export const modules = {

/***/ 2656:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   verifyExportArchive: () => (/* binding */ verifyExportArchive),
/* harmony export */   verifyExportStream: () => (/* binding */ verifyExportStream)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_stream_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6466);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8522);
/* harmony import */ var tar_stream__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6118);




/**
 * Reads the archive once, as a stream: it must be gzip (complete: gunzip fails on a cut file), a
 * tar that ends properly, and hold a `VERSION` entry (GitLab's importer requires it).
 * Throws an Error saying what is wrong. Entries are drained, never kept.
 */
const verifyExportArchive = (file, read) => verifyExportStream((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.createReadStream)(file), read);
/**
 * verifyExportArchive on a stream of the archive's bytes (an archive being downloaded and encrypted);
 * `read` is handed each entry but `VERSION` as it streams by (import-project's `verify` counts the tree).
 */
async function verifyExportStream(source, read) {
    const tar = (0,tar_stream__WEBPACK_IMPORTED_MODULE_3__.extract)();
    let entries = 0;
    let version;
    let readError;
    tar.on('entry', (header, stream, next) => {
        entries++;
        const name = header.name.replace(/^\.\//, '');
        const reading = name === 'VERSION' ? undefined : read?.(name, stream);
        if (reading) {
            reading.then(() => next(), (err) => {
                readError = err;
                tar.destroy(err);
            });
            return;
        }
        const chunks = [];
        stream.on('data', (c) => {
            if (name === 'VERSION' && chunks.length < 4)
                chunks.push(c);
        });
        stream.on('end', () => {
            if (name === 'VERSION')
                version = Buffer.concat(chunks).toString('utf8').trim();
            next();
        });
        // A pipeline torn down mid-entry errors the entry too: the pipeline's rejection reports it.
        stream.on('error', () => undefined);
        stream.resume();
    });
    try {
        await (0,node_stream_promises__WEBPACK_IMPORTED_MODULE_1__.pipeline)(source, (0,node_zlib__WEBPACK_IMPORTED_MODULE_2__.createGunzip)(), tar);
    }
    catch (err) {
        if (readError)
            throw readError;
        throw new Error(`not a complete gzip tar archive (${err.message})`);
    }
    if (entries === 0)
        throw new Error('the archive is empty');
    if (version === undefined)
        throw new Error('the archive has no VERSION entry: not a GitLab project export');
    return { entries, version };
}


/***/ })

};
