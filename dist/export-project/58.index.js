export const id = 58;
export const ids = [58,656];
export const modules = {

/***/ 7058:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   saveEncrypted: () => (/* binding */ saveEncrypted)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1455);
/* harmony import */ var node_stream__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7075);
/* harmony import */ var node_stream_promises__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6466);
/* harmony import */ var age_encryption__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(1539);
/* harmony import */ var _api_project_exports_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(9114);
/* harmony import */ var _verify_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(2656);
/*
 * `encrypt-to`: the archive is encrypted to age recipients as it downloads, so the plaintext never
 * touches the disk. One pass over the body: the plaintext is hashed and checked (gzip, tar,
 * VERSION) on the side, encrypted in a stream by age-encryption (the age author's implementation,
 * STREAM chunks of 64 KiB: memory stays flat whatever the size), and what is stored is hashed.
 * Loaded only when `encrypt-to` is set.
 */







/**
 * A pass-through that also writes each chunk to `side` (with its backpressure), and ends it at the
 * end. A side that failed is closed: the rest flows on, and the failure is reported by its check.
 */
function copyTo(side) {
    return new node_stream__WEBPACK_IMPORTED_MODULE_2__.Transform({
        transform(chunk, _enc, done) {
            if (side.destroyed || side.write(chunk))
                return done(null, chunk);
            const go = () => {
                side.off('drain', go).off('close', go);
                done(null, chunk);
            };
            side.on('drain', go).on('close', go);
        },
        flush(done) {
            side.end();
            done();
        },
    });
}
/**
 * Streams `got` into `file` encrypted to `recipients` (written as `file.part`, renamed when complete
 * and checked). Throws, leaving no file, when the body ends short of `Content-Length`, the
 * connection breaks or the plaintext is not a complete GitLab export archive.
 */
async function saveEncrypted(got, file, recipients, signal) {
    const encrypter = new age_encryption__WEBPACK_IMPORTED_MODULE_4__.Encrypter();
    for (const r of recipients)
        encrypter.addRecipient(r);
    const side = new node_stream__WEBPACK_IMPORTED_MODULE_2__.PassThrough();
    const checked = (0,_verify_js__WEBPACK_IMPORTED_MODULE_5__.verifyExportStream)(side);
    checked.catch(() => undefined); // awaited below, after the download
    const plain = (0,_api_project_exports_js__WEBPACK_IMPORTED_MODULE_6__/* .hashingTap */ .Wy)();
    const stored = (0,_api_project_exports_js__WEBPACK_IMPORTED_MODULE_6__/* .hashingTap */ .Wy)();
    // age-encryption takes and gives web streams: an identity TransformStream makes it a Duplex.
    const { readable, writable } = new TransformStream();
    const encrypt = node_stream__WEBPACK_IMPORTED_MODULE_2__.Duplex.fromWeb({ readable: await encrypter.encrypt(readable), writable });
    const part = `${file}.part`;
    try {
        await (0,node_stream_promises__WEBPACK_IMPORTED_MODULE_3__.pipeline)(got.body, copyTo(side), plain.stream, encrypt, stored.stream, (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.createWriteStream)(part), {
            signal,
        });
        const p = plain.result();
        if (got.length !== undefined && p.size !== got.length)
            throw new Error(`download ended after ${p.size} of ${got.length} bytes`);
        const check = await checked;
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rename)(part, file);
        const s = stored.result();
        return { path: file, size: s.size, sha256: s.sha256, filename: got.filename, plain: p, check };
    }
    catch (err) {
        side.destroy();
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm)(part, { force: true });
        throw err;
    }
}


/***/ }),

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
