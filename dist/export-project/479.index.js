export const id = 479;
export const ids = [479];
export const modules = {

/***/ 1479:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Value: () => (/* reexport */ value_namespaceObject)
});

// UNUSED EXPORTS: Assert, AssertError, Cast, Check, Clean, Clone, Convert, Create, Decode, Default, Delete, Diff, Edit, Encode, Equal, HasPropertyKey, HasTransform, Hash, Insert, IsArray, IsAsyncIterator, IsBigInt, IsBigInt64Array, IsBigUint64Array, IsBoolean, IsDate, IsFloat32Array, IsFloat64Array, IsFunction, IsInstanceObject, IsInt16Array, IsInt32Array, IsInt8Array, IsInteger, IsIterator, IsMap, IsNull, IsNumber, IsObject, IsPromise, IsRegExp, IsSet, IsStandardObject, IsString, IsSymbol, IsTypedArray, IsUint16Array, IsUint32Array, IsUint8Array, IsUint8ClampedArray, IsUndefined, IsValueType, Mutate, Parse, ParseDefault, ParseError, ParseRegistry, Patch, TransformDecode, TransformDecodeCheckError, TransformDecodeError, TransformEncode, TransformEncodeCheckError, TransformEncodeError, Update, ValueCastError, ValueCheckUnknownTypeError, ValueCreateError, ValueDiffError, ValueErrorIterator, ValueErrorType, ValueHashError, ValueMutateError, ValuePointer

// NAMESPACE OBJECT: ./node_modules/@sinclair/typebox/build/esm/value/value/value.mjs
var value_namespaceObject = {};
__webpack_require__.r(value_namespaceObject);
__webpack_require__.d(value_namespaceObject, {
  Assert: () => (Assert),
  Cast: () => (Cast),
  Check: () => (Check),
  Clean: () => (Clean),
  Clone: () => (Clone),
  Convert: () => (Convert),
  Create: () => (create_Create),
  Decode: () => (Decode),
  Default: () => (default_Default),
  Diff: () => (Diff),
  Edit: () => (Edit),
  Encode: () => (Encode),
  Equal: () => (Equal),
  Errors: () => (Errors),
  Hash: () => (Hash),
  Mutate: () => (Mutate),
  Parse: () => (Parse),
  Patch: () => (Patch),
  ValueErrorIterator: () => (ValueErrorIterator)
});

// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/system/policy.mjs
var policy = __webpack_require__(2222);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/keyof/keyof-property-keys.mjs
var keyof_property_keys = __webpack_require__(7977);
;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/type/registry/format.mjs
/** A registry for user defined string formats */
const map = new Map();
/** Returns the entries in this registry */
function Entries() {
    return new Map(map);
}
/** Clears all user defined string formats */
function Clear() {
    return map.clear();
}
/** Deletes a registered format */
function Delete(format) {
    return map.delete(format);
}
/** Returns true if the user defined string format exists */
function Has(format) {
    return map.has(format);
}
/** Sets a validation function for a user defined string format */
function format_Set(format, func) {
    map.set(format, func);
}
/** Gets a validation function for a user defined string format */
function Get(format) {
    return map.get(format);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/type/registry/type.mjs
/** A registry for user defined types */
const type_map = new Map();
/** Returns the entries in this registry */
function type_Entries() {
    return new Map(type_map);
}
/** Clears all user defined types */
function type_Clear() {
    return type_map.clear();
}
/** Deletes a registered type */
function type_Delete(kind) {
    return type_map.delete(kind);
}
/** Returns true if this registry contains this kind */
function type_Has(kind) {
    return type_map.has(kind);
}
/** Sets a validation function for a user defined type */
function type_Set(kind, func) {
    type_map.set(kind, func);
}
/** Gets a custom validation function for a user defined type */
function type_Get(kind) {
    return type_map.get(kind);
}

// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/symbols/symbols.mjs
var symbols = __webpack_require__(7946);
;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/type/extends/extends-undefined.mjs

/** Fast undefined check used for properties of type undefined */
function Intersect(schema) {
    return schema.allOf.every((schema) => ExtendsUndefinedCheck(schema));
}
function Union(schema) {
    return schema.anyOf.some((schema) => ExtendsUndefinedCheck(schema));
}
function Not(schema) {
    return !ExtendsUndefinedCheck(schema.not);
}
/** Fast undefined check used for properties of type undefined */
// prettier-ignore
function ExtendsUndefinedCheck(schema) {
    return (schema[symbols/* Kind */.b8] === 'Intersect' ? Intersect(schema) :
        schema[symbols/* Kind */.b8] === 'Union' ? Union(schema) :
            schema[symbols/* Kind */.b8] === 'Not' ? Not(schema) :
                schema[symbols/* Kind */.b8] === 'Undefined' ? true :
                    false);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/errors/function.mjs


/** Creates an error message using en-US as the default locale */
function DefaultErrorFunction(error) {
    switch (error.errorType) {
        case ValueErrorType.ArrayContains:
            return 'Expected array to contain at least one matching value';
        case ValueErrorType.ArrayMaxContains:
            return `Expected array to contain no more than ${error.schema.maxContains} matching values`;
        case ValueErrorType.ArrayMinContains:
            return `Expected array to contain at least ${error.schema.minContains} matching values`;
        case ValueErrorType.ArrayMaxItems:
            return `Expected array length to be less or equal to ${error.schema.maxItems}`;
        case ValueErrorType.ArrayMinItems:
            return `Expected array length to be greater or equal to ${error.schema.minItems}`;
        case ValueErrorType.ArrayUniqueItems:
            return 'Expected array elements to be unique';
        case ValueErrorType.Array:
            return 'Expected array';
        case ValueErrorType.AsyncIterator:
            return 'Expected AsyncIterator';
        case ValueErrorType.BigIntExclusiveMaximum:
            return `Expected bigint to be less than ${error.schema.exclusiveMaximum}`;
        case ValueErrorType.BigIntExclusiveMinimum:
            return `Expected bigint to be greater than ${error.schema.exclusiveMinimum}`;
        case ValueErrorType.BigIntMaximum:
            return `Expected bigint to be less or equal to ${error.schema.maximum}`;
        case ValueErrorType.BigIntMinimum:
            return `Expected bigint to be greater or equal to ${error.schema.minimum}`;
        case ValueErrorType.BigIntMultipleOf:
            return `Expected bigint to be a multiple of ${error.schema.multipleOf}`;
        case ValueErrorType.BigInt:
            return 'Expected bigint';
        case ValueErrorType.Boolean:
            return 'Expected boolean';
        case ValueErrorType.DateExclusiveMinimumTimestamp:
            return `Expected Date timestamp to be greater than ${error.schema.exclusiveMinimumTimestamp}`;
        case ValueErrorType.DateExclusiveMaximumTimestamp:
            return `Expected Date timestamp to be less than ${error.schema.exclusiveMaximumTimestamp}`;
        case ValueErrorType.DateMinimumTimestamp:
            return `Expected Date timestamp to be greater or equal to ${error.schema.minimumTimestamp}`;
        case ValueErrorType.DateMaximumTimestamp:
            return `Expected Date timestamp to be less or equal to ${error.schema.maximumTimestamp}`;
        case ValueErrorType.DateMultipleOfTimestamp:
            return `Expected Date timestamp to be a multiple of ${error.schema.multipleOfTimestamp}`;
        case ValueErrorType.Date:
            return 'Expected Date';
        case ValueErrorType.Function:
            return 'Expected function';
        case ValueErrorType.IntegerExclusiveMaximum:
            return `Expected integer to be less than ${error.schema.exclusiveMaximum}`;
        case ValueErrorType.IntegerExclusiveMinimum:
            return `Expected integer to be greater than ${error.schema.exclusiveMinimum}`;
        case ValueErrorType.IntegerMaximum:
            return `Expected integer to be less or equal to ${error.schema.maximum}`;
        case ValueErrorType.IntegerMinimum:
            return `Expected integer to be greater or equal to ${error.schema.minimum}`;
        case ValueErrorType.IntegerMultipleOf:
            return `Expected integer to be a multiple of ${error.schema.multipleOf}`;
        case ValueErrorType.Integer:
            return 'Expected integer';
        case ValueErrorType.IntersectUnevaluatedProperties:
            return 'Unexpected property';
        case ValueErrorType.Intersect:
            return 'Expected all values to match';
        case ValueErrorType.Iterator:
            return 'Expected Iterator';
        case ValueErrorType.Literal:
            return `Expected ${typeof error.schema.const === 'string' ? `'${error.schema.const}'` : error.schema.const}`;
        case ValueErrorType.Never:
            return 'Never';
        case ValueErrorType.Not:
            return 'Value should not match';
        case ValueErrorType.Null:
            return 'Expected null';
        case ValueErrorType.NumberExclusiveMaximum:
            return `Expected number to be less than ${error.schema.exclusiveMaximum}`;
        case ValueErrorType.NumberExclusiveMinimum:
            return `Expected number to be greater than ${error.schema.exclusiveMinimum}`;
        case ValueErrorType.NumberMaximum:
            return `Expected number to be less or equal to ${error.schema.maximum}`;
        case ValueErrorType.NumberMinimum:
            return `Expected number to be greater or equal to ${error.schema.minimum}`;
        case ValueErrorType.NumberMultipleOf:
            return `Expected number to be a multiple of ${error.schema.multipleOf}`;
        case ValueErrorType.Number:
            return 'Expected number';
        case ValueErrorType.Object:
            return 'Expected object';
        case ValueErrorType.ObjectAdditionalProperties:
            return 'Unexpected property';
        case ValueErrorType.ObjectMaxProperties:
            return `Expected object to have no more than ${error.schema.maxProperties} properties`;
        case ValueErrorType.ObjectMinProperties:
            return `Expected object to have at least ${error.schema.minProperties} properties`;
        case ValueErrorType.ObjectRequiredProperty:
            return 'Expected required property';
        case ValueErrorType.Promise:
            return 'Expected Promise';
        case ValueErrorType.RegExp:
            return 'Expected string to match regular expression';
        case ValueErrorType.StringFormatUnknown:
            return `Unknown format '${error.schema.format}'`;
        case ValueErrorType.StringFormat:
            return `Expected string to match '${error.schema.format}' format`;
        case ValueErrorType.StringMaxLength:
            return `Expected string length less or equal to ${error.schema.maxLength}`;
        case ValueErrorType.StringMinLength:
            return `Expected string length greater or equal to ${error.schema.minLength}`;
        case ValueErrorType.StringPattern:
            return `Expected string to match '${error.schema.pattern}'`;
        case ValueErrorType.String:
            return 'Expected string';
        case ValueErrorType.Symbol:
            return 'Expected symbol';
        case ValueErrorType.TupleLength:
            return `Expected tuple to have ${error.schema.maxItems || 0} elements`;
        case ValueErrorType.Tuple:
            return 'Expected tuple';
        case ValueErrorType.Uint8ArrayMaxByteLength:
            return `Expected byte length less or equal to ${error.schema.maxByteLength}`;
        case ValueErrorType.Uint8ArrayMinByteLength:
            return `Expected byte length greater or equal to ${error.schema.minByteLength}`;
        case ValueErrorType.Uint8Array:
            return 'Expected Uint8Array';
        case ValueErrorType.Undefined:
            return 'Expected undefined';
        case ValueErrorType.Union:
            return 'Expected union value';
        case ValueErrorType.Void:
            return 'Expected void';
        case ValueErrorType.Kind:
            return `Expected kind '${error.schema[symbols/* Kind */.b8]}'`;
        default:
            return 'Unknown error type';
    }
}
/** Manages error message providers */
let errorFunction = DefaultErrorFunction;
/** Sets the error function used to generate error messages. */
function SetErrorFunction(callback) {
    errorFunction = callback;
}
/** Gets the error function used to generate error messages */
function GetErrorFunction() {
    return errorFunction;
}

// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/error/error.mjs
var error = __webpack_require__(9686);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/value/guard/guard.mjs
var guard = __webpack_require__(5129);
;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/deref/deref.mjs



class TypeDereferenceError extends error/* TypeBoxError */.i {
    constructor(schema) {
        super(`Unable to dereference schema with $id '${schema.$ref}'`);
        this.schema = schema;
    }
}
function Resolve(schema, references) {
    const target = references.find((target) => target.$id === schema.$ref);
    if (target === undefined)
        throw new TypeDereferenceError(schema);
    return Deref(target, references);
}
/** `[Internal]` Pushes a schema onto references if the schema has an $id and does not exist on references */
function Pushref(schema, references) {
    if (!(0,guard/* IsString */.IP)(schema.$id) || references.some((target) => target.$id === schema.$id))
        return references;
    references.push(schema);
    return references;
}
/** `[Internal]` Dereferences a schema from the references array or throws if not found */
function Deref(schema, references) {
    // prettier-ignore
    return (schema[symbols/* Kind */.b8] === 'This' || schema[symbols/* Kind */.b8] === 'Ref')
        ? Resolve(schema, references)
        : schema;
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/hash/hash.mjs


// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
class ValueHashError extends error/* TypeBoxError */.i {
    constructor(value) {
        super(`Unable to hash value`);
        this.value = value;
    }
}
// ------------------------------------------------------------------
// ByteMarker
// ------------------------------------------------------------------
var ByteMarker;
(function (ByteMarker) {
    ByteMarker[ByteMarker["Undefined"] = 0] = "Undefined";
    ByteMarker[ByteMarker["Null"] = 1] = "Null";
    ByteMarker[ByteMarker["Boolean"] = 2] = "Boolean";
    ByteMarker[ByteMarker["Number"] = 3] = "Number";
    ByteMarker[ByteMarker["String"] = 4] = "String";
    ByteMarker[ByteMarker["Object"] = 5] = "Object";
    ByteMarker[ByteMarker["Array"] = 6] = "Array";
    ByteMarker[ByteMarker["Date"] = 7] = "Date";
    ByteMarker[ByteMarker["Uint8Array"] = 8] = "Uint8Array";
    ByteMarker[ByteMarker["Symbol"] = 9] = "Symbol";
    ByteMarker[ByteMarker["BigInt"] = 10] = "BigInt";
})(ByteMarker || (ByteMarker = {}));
// ------------------------------------------------------------------
// State
// ------------------------------------------------------------------
let Accumulator = BigInt('14695981039346656037');
const [Prime, Size] = [BigInt('1099511628211'), BigInt('18446744073709551616' /* 2 ^ 64 */)];
const Bytes = Array.from({ length: 256 }).map((_, i) => BigInt(i));
const F64 = new Float64Array(1);
const F64In = new DataView(F64.buffer);
const F64Out = new Uint8Array(F64.buffer);
// ------------------------------------------------------------------
// NumberToBytes
// ------------------------------------------------------------------
function* NumberToBytes(value) {
    const byteCount = value === 0 ? 1 : Math.ceil(Math.floor(Math.log2(value) + 1) / 8);
    for (let i = 0; i < byteCount; i++) {
        yield (value >> (8 * (byteCount - 1 - i))) & 0xff;
    }
}
// ------------------------------------------------------------------
// Hashing Functions
// ------------------------------------------------------------------
function ArrayType(value) {
    FNV1A64(ByteMarker.Array);
    for (const item of value) {
        Visit(item);
    }
}
function BooleanType(value) {
    FNV1A64(ByteMarker.Boolean);
    FNV1A64(value ? 1 : 0);
}
function BigIntType(value) {
    FNV1A64(ByteMarker.BigInt);
    F64In.setBigInt64(0, value);
    for (const byte of F64Out) {
        FNV1A64(byte);
    }
}
function DateType(value) {
    FNV1A64(ByteMarker.Date);
    Visit(value.getTime());
}
function NullType(value) {
    FNV1A64(ByteMarker.Null);
}
function NumberType(value) {
    FNV1A64(ByteMarker.Number);
    F64In.setFloat64(0, value);
    for (const byte of F64Out) {
        FNV1A64(byte);
    }
}
function ObjectType(value) {
    FNV1A64(ByteMarker.Object);
    for (const key of globalThis.Object.getOwnPropertyNames(value).sort()) {
        Visit(key);
        Visit(value[key]);
    }
}
function StringType(value) {
    FNV1A64(ByteMarker.String);
    for (let i = 0; i < value.length; i++) {
        for (const byte of NumberToBytes(value.charCodeAt(i))) {
            FNV1A64(byte);
        }
    }
}
function SymbolType(value) {
    FNV1A64(ByteMarker.Symbol);
    Visit(value.description);
}
function Uint8ArrayType(value) {
    FNV1A64(ByteMarker.Uint8Array);
    for (let i = 0; i < value.length; i++) {
        FNV1A64(value[i]);
    }
}
function UndefinedType(value) {
    return FNV1A64(ByteMarker.Undefined);
}
function Visit(value) {
    if ((0,guard/* IsArray */.QS)(value))
        return ArrayType(value);
    if ((0,guard/* IsBoolean */.Zx)(value))
        return BooleanType(value);
    if ((0,guard/* IsBigInt */.cQ)(value))
        return BigIntType(value);
    if ((0,guard/* IsDate */.XF)(value))
        return DateType(value);
    if ((0,guard/* IsNull */.Ef)(value))
        return NullType(value);
    if ((0,guard/* IsNumber */.Mx)(value))
        return NumberType(value);
    if ((0,guard/* IsObject */.av)(value))
        return ObjectType(value);
    if ((0,guard/* IsString */.IP)(value))
        return StringType(value);
    if ((0,guard/* IsSymbol */.nH)(value))
        return SymbolType(value);
    if ((0,guard/* IsUint8Array */.G4)(value))
        return Uint8ArrayType(value);
    if ((0,guard/* IsUndefined */.R1)(value))
        return UndefinedType(value);
    throw new ValueHashError(value);
}
function FNV1A64(byte) {
    Accumulator = Accumulator ^ Bytes[byte];
    Accumulator = (Accumulator * Prime) % Size;
}
// ------------------------------------------------------------------
// Hash
// ------------------------------------------------------------------
/** Creates a FNV1A-64 non cryptographic hash of the given value */
function Hash(value) {
    Accumulator = BigInt('14695981039346656037');
    Visit(value);
    return Accumulator;
}

// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/never/never.mjs
var never = __webpack_require__(5454);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/guard/kind.mjs
var kind = __webpack_require__(4961);
;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/check/check.mjs









// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// KindGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
class ValueCheckUnknownTypeError extends error/* TypeBoxError */.i {
    constructor(schema) {
        super(`Unknown type`);
        this.schema = schema;
    }
}
// ------------------------------------------------------------------
// TypeGuards
// ------------------------------------------------------------------
function IsAnyOrUnknown(schema) {
    return schema[symbols/* Kind */.b8] === 'Any' || schema[symbols/* Kind */.b8] === 'Unknown';
}
// ------------------------------------------------------------------
// Guards
// ------------------------------------------------------------------
function IsDefined(value) {
    return value !== undefined;
}
// ------------------------------------------------------------------
// Types
// ------------------------------------------------------------------
function FromAny(schema, references, value) {
    return true;
}
function FromArgument(schema, references, value) {
    return true;
}
function FromArray(schema, references, value) {
    if (!(0,guard/* IsArray */.QS)(value))
        return false;
    if (IsDefined(schema.minItems) && !(value.length >= schema.minItems)) {
        return false;
    }
    if (IsDefined(schema.maxItems) && !(value.length <= schema.maxItems)) {
        return false;
    }
    for (const element of value) {
        if (!check_Visit(schema.items, references, element))
            return false;
    }
    // prettier-ignore
    if (schema.uniqueItems === true && !((function () { const set = new Set(); for (const element of value) {
        const hashed = Hash(element);
        if (set.has(hashed)) {
            return false;
        }
        else {
            set.add(hashed);
        }
    } return true; })())) {
        return false;
    }
    // contains
    if (!(IsDefined(schema.contains) || (0,guard/* IsNumber */.Mx)(schema.minContains) || (0,guard/* IsNumber */.Mx)(schema.maxContains))) {
        return true; // exit
    }
    const containsSchema = IsDefined(schema.contains) ? schema.contains : (0,never/* Never */.p)();
    const containsCount = value.reduce((acc, value) => (check_Visit(containsSchema, references, value) ? acc + 1 : acc), 0);
    if (containsCount === 0) {
        return false;
    }
    if ((0,guard/* IsNumber */.Mx)(schema.minContains) && containsCount < schema.minContains) {
        return false;
    }
    if ((0,guard/* IsNumber */.Mx)(schema.maxContains) && containsCount > schema.maxContains) {
        return false;
    }
    return true;
}
function FromAsyncIterator(schema, references, value) {
    return (0,guard/* IsAsyncIterator */.H1)(value);
}
function FromBigInt(schema, references, value) {
    if (!(0,guard/* IsBigInt */.cQ)(value))
        return false;
    if (IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
        return false;
    }
    if (IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
        return false;
    }
    if (IsDefined(schema.maximum) && !(value <= schema.maximum)) {
        return false;
    }
    if (IsDefined(schema.minimum) && !(value >= schema.minimum)) {
        return false;
    }
    if (IsDefined(schema.multipleOf) && !(value % schema.multipleOf === BigInt(0))) {
        return false;
    }
    return true;
}
function FromBoolean(schema, references, value) {
    return (0,guard/* IsBoolean */.Zx)(value);
}
function FromConstructor(schema, references, value) {
    return check_Visit(schema.returns, references, value.prototype);
}
function FromDate(schema, references, value) {
    if (!(0,guard/* IsDate */.XF)(value))
        return false;
    if (IsDefined(schema.exclusiveMaximumTimestamp) && !(value.getTime() < schema.exclusiveMaximumTimestamp)) {
        return false;
    }
    if (IsDefined(schema.exclusiveMinimumTimestamp) && !(value.getTime() > schema.exclusiveMinimumTimestamp)) {
        return false;
    }
    if (IsDefined(schema.maximumTimestamp) && !(value.getTime() <= schema.maximumTimestamp)) {
        return false;
    }
    if (IsDefined(schema.minimumTimestamp) && !(value.getTime() >= schema.minimumTimestamp)) {
        return false;
    }
    if (IsDefined(schema.multipleOfTimestamp) && !(value.getTime() % schema.multipleOfTimestamp === 0)) {
        return false;
    }
    return true;
}
function FromFunction(schema, references, value) {
    return (0,guard/* IsFunction */.hg)(value);
}
function FromImport(schema, references, value) {
    const definitions = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    return check_Visit(target, [...references, ...definitions], value);
}
function FromInteger(schema, references, value) {
    if (!(0,guard/* IsInteger */.$p)(value)) {
        return false;
    }
    if (IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
        return false;
    }
    if (IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
        return false;
    }
    if (IsDefined(schema.maximum) && !(value <= schema.maximum)) {
        return false;
    }
    if (IsDefined(schema.minimum) && !(value >= schema.minimum)) {
        return false;
    }
    if (IsDefined(schema.multipleOf) && !(value % schema.multipleOf === 0)) {
        return false;
    }
    return true;
}
function FromIntersect(schema, references, value) {
    const check1 = schema.allOf.every((schema) => check_Visit(schema, references, value));
    if (schema.unevaluatedProperties === false) {
        const keyPattern = new RegExp((0,keyof_property_keys/* KeyOfPattern */.n)(schema));
        const check2 = Object.getOwnPropertyNames(value).every((key) => keyPattern.test(key));
        return check1 && check2;
    }
    else if ((0,kind/* IsSchema */.Yi)(schema.unevaluatedProperties)) {
        const keyCheck = new RegExp((0,keyof_property_keys/* KeyOfPattern */.n)(schema));
        const check2 = Object.getOwnPropertyNames(value).every((key) => keyCheck.test(key) || check_Visit(schema.unevaluatedProperties, references, value[key]));
        return check1 && check2;
    }
    else {
        return check1;
    }
}
function FromIterator(schema, references, value) {
    return (0,guard/* IsIterator */.jo)(value);
}
function FromLiteral(schema, references, value) {
    return value === schema.const;
}
function FromNever(schema, references, value) {
    return false;
}
function FromNot(schema, references, value) {
    return !check_Visit(schema.not, references, value);
}
function FromNull(schema, references, value) {
    return (0,guard/* IsNull */.Ef)(value);
}
function FromNumber(schema, references, value) {
    if (!policy/* TypeSystemPolicy */.Q.IsNumberLike(value))
        return false;
    if (IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
        return false;
    }
    if (IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
        return false;
    }
    if (IsDefined(schema.minimum) && !(value >= schema.minimum)) {
        return false;
    }
    if (IsDefined(schema.maximum) && !(value <= schema.maximum)) {
        return false;
    }
    if (IsDefined(schema.multipleOf) && !(value % schema.multipleOf === 0)) {
        return false;
    }
    return true;
}
function FromObject(schema, references, value) {
    if (!policy/* TypeSystemPolicy */.Q.IsObjectLike(value))
        return false;
    if (IsDefined(schema.minProperties) && !(Object.getOwnPropertyNames(value).length >= schema.minProperties)) {
        return false;
    }
    if (IsDefined(schema.maxProperties) && !(Object.getOwnPropertyNames(value).length <= schema.maxProperties)) {
        return false;
    }
    const knownKeys = Object.getOwnPropertyNames(schema.properties);
    for (const knownKey of knownKeys) {
        const property = schema.properties[knownKey];
        if (schema.required && schema.required.includes(knownKey)) {
            if (!check_Visit(property, references, value[knownKey])) {
                return false;
            }
            if ((ExtendsUndefinedCheck(property) || IsAnyOrUnknown(property)) && !(knownKey in value)) {
                return false;
            }
        }
        else {
            if (policy/* TypeSystemPolicy */.Q.IsExactOptionalProperty(value, knownKey) && !check_Visit(property, references, value[knownKey])) {
                return false;
            }
        }
    }
    if (schema.additionalProperties === false) {
        const valueKeys = Object.getOwnPropertyNames(value);
        // optimization: value is valid if schemaKey length matches the valueKey length
        if (schema.required && schema.required.length === knownKeys.length && valueKeys.length === knownKeys.length) {
            return true;
        }
        else {
            return valueKeys.every((valueKey) => knownKeys.includes(valueKey));
        }
    }
    else if (typeof schema.additionalProperties === 'object') {
        const valueKeys = Object.getOwnPropertyNames(value);
        return valueKeys.every((key) => knownKeys.includes(key) || check_Visit(schema.additionalProperties, references, value[key]));
    }
    else {
        return true;
    }
}
function FromPromise(schema, references, value) {
    return (0,guard/* IsPromise */.OD)(value);
}
function FromRecord(schema, references, value) {
    if (!policy/* TypeSystemPolicy */.Q.IsRecordLike(value)) {
        return false;
    }
    if (IsDefined(schema.minProperties) && !(Object.getOwnPropertyNames(value).length >= schema.minProperties)) {
        return false;
    }
    if (IsDefined(schema.maxProperties) && !(Object.getOwnPropertyNames(value).length <= schema.maxProperties)) {
        return false;
    }
    const [patternKey, patternSchema] = Object.entries(schema.patternProperties)[0];
    const regex = new RegExp(patternKey);
    // prettier-ignore
    const check1 = Object.entries(value).every(([key, value]) => {
        return (regex.test(key)) ? check_Visit(patternSchema, references, value) : true;
    });
    // prettier-ignore
    const check2 = typeof schema.additionalProperties === 'object' ? Object.entries(value).every(([key, value]) => {
        return (!regex.test(key)) ? check_Visit(schema.additionalProperties, references, value) : true;
    }) : true;
    const check3 = schema.additionalProperties === false
        ? Object.getOwnPropertyNames(value).every((key) => {
            return regex.test(key);
        })
        : true;
    return check1 && check2 && check3;
}
function FromRef(schema, references, value) {
    return check_Visit(Deref(schema, references), references, value);
}
function FromRegExp(schema, references, value) {
    const regex = new RegExp(schema.source, schema.flags);
    if (IsDefined(schema.minLength)) {
        if (!(value.length >= schema.minLength))
            return false;
    }
    if (IsDefined(schema.maxLength)) {
        if (!(value.length <= schema.maxLength))
            return false;
    }
    return regex.test(value);
}
function FromString(schema, references, value) {
    if (!(0,guard/* IsString */.IP)(value)) {
        return false;
    }
    if (IsDefined(schema.minLength)) {
        if (!(value.length >= schema.minLength))
            return false;
    }
    if (IsDefined(schema.maxLength)) {
        if (!(value.length <= schema.maxLength))
            return false;
    }
    if (IsDefined(schema.pattern)) {
        const regex = new RegExp(schema.pattern);
        if (!regex.test(value))
            return false;
    }
    if (IsDefined(schema.format)) {
        if (!Has(schema.format))
            return false;
        const func = Get(schema.format);
        return func(value);
    }
    return true;
}
function FromSymbol(schema, references, value) {
    return (0,guard/* IsSymbol */.nH)(value);
}
function FromTemplateLiteral(schema, references, value) {
    return (0,guard/* IsString */.IP)(value) && new RegExp(schema.pattern).test(value);
}
function FromThis(schema, references, value) {
    return check_Visit(Deref(schema, references), references, value);
}
function FromTuple(schema, references, value) {
    if (!(0,guard/* IsArray */.QS)(value)) {
        return false;
    }
    if (schema.items === undefined && !(value.length === 0)) {
        return false;
    }
    if (!(value.length === schema.maxItems)) {
        return false;
    }
    if (!schema.items) {
        return true;
    }
    for (let i = 0; i < schema.items.length; i++) {
        if (!check_Visit(schema.items[i], references, value[i]))
            return false;
    }
    return true;
}
function FromUndefined(schema, references, value) {
    return (0,guard/* IsUndefined */.R1)(value);
}
function FromUnion(schema, references, value) {
    return schema.anyOf.some((inner) => check_Visit(inner, references, value));
}
function FromUint8Array(schema, references, value) {
    if (!(0,guard/* IsUint8Array */.G4)(value)) {
        return false;
    }
    if (IsDefined(schema.maxByteLength) && !(value.length <= schema.maxByteLength)) {
        return false;
    }
    if (IsDefined(schema.minByteLength) && !(value.length >= schema.minByteLength)) {
        return false;
    }
    return true;
}
function FromUnknown(schema, references, value) {
    return true;
}
function FromVoid(schema, references, value) {
    return policy/* TypeSystemPolicy */.Q.IsVoidLike(value);
}
function FromKind(schema, references, value) {
    if (!type_Has(schema[symbols/* Kind */.b8]))
        return false;
    const func = type_Get(schema[symbols/* Kind */.b8]);
    return func(schema, value);
}
function check_Visit(schema, references, value) {
    const references_ = IsDefined(schema.$id) ? Pushref(schema, references) : references;
    const schema_ = schema;
    switch (schema_[symbols/* Kind */.b8]) {
        case 'Any':
            return FromAny(schema_, references_, value);
        case 'Argument':
            return FromArgument(schema_, references_, value);
        case 'Array':
            return FromArray(schema_, references_, value);
        case 'AsyncIterator':
            return FromAsyncIterator(schema_, references_, value);
        case 'BigInt':
            return FromBigInt(schema_, references_, value);
        case 'Boolean':
            return FromBoolean(schema_, references_, value);
        case 'Constructor':
            return FromConstructor(schema_, references_, value);
        case 'Date':
            return FromDate(schema_, references_, value);
        case 'Function':
            return FromFunction(schema_, references_, value);
        case 'Import':
            return FromImport(schema_, references_, value);
        case 'Integer':
            return FromInteger(schema_, references_, value);
        case 'Intersect':
            return FromIntersect(schema_, references_, value);
        case 'Iterator':
            return FromIterator(schema_, references_, value);
        case 'Literal':
            return FromLiteral(schema_, references_, value);
        case 'Never':
            return FromNever(schema_, references_, value);
        case 'Not':
            return FromNot(schema_, references_, value);
        case 'Null':
            return FromNull(schema_, references_, value);
        case 'Number':
            return FromNumber(schema_, references_, value);
        case 'Object':
            return FromObject(schema_, references_, value);
        case 'Promise':
            return FromPromise(schema_, references_, value);
        case 'Record':
            return FromRecord(schema_, references_, value);
        case 'Ref':
            return FromRef(schema_, references_, value);
        case 'RegExp':
            return FromRegExp(schema_, references_, value);
        case 'String':
            return FromString(schema_, references_, value);
        case 'Symbol':
            return FromSymbol(schema_, references_, value);
        case 'TemplateLiteral':
            return FromTemplateLiteral(schema_, references_, value);
        case 'This':
            return FromThis(schema_, references_, value);
        case 'Tuple':
            return FromTuple(schema_, references_, value);
        case 'Undefined':
            return FromUndefined(schema_, references_, value);
        case 'Union':
            return FromUnion(schema_, references_, value);
        case 'Uint8Array':
            return FromUint8Array(schema_, references_, value);
        case 'Unknown':
            return FromUnknown(schema_, references_, value);
        case 'Void':
            return FromVoid(schema_, references_, value);
        default:
            if (!type_Has(schema_[symbols/* Kind */.b8]))
                throw new ValueCheckUnknownTypeError(schema_);
            return FromKind(schema_, references_, value);
    }
}
/** Returns true if the value matches the given type. */
function Check(...args) {
    return args.length === 3 ? check_Visit(args[0], args[1], args[2]) : check_Visit(args[0], [], args[1]);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/errors/errors.mjs











// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------
// prettier-ignore

// ------------------------------------------------------------------
// ValueErrorType
// ------------------------------------------------------------------
var ValueErrorType;
(function (ValueErrorType) {
    ValueErrorType[ValueErrorType["ArrayContains"] = 0] = "ArrayContains";
    ValueErrorType[ValueErrorType["ArrayMaxContains"] = 1] = "ArrayMaxContains";
    ValueErrorType[ValueErrorType["ArrayMaxItems"] = 2] = "ArrayMaxItems";
    ValueErrorType[ValueErrorType["ArrayMinContains"] = 3] = "ArrayMinContains";
    ValueErrorType[ValueErrorType["ArrayMinItems"] = 4] = "ArrayMinItems";
    ValueErrorType[ValueErrorType["ArrayUniqueItems"] = 5] = "ArrayUniqueItems";
    ValueErrorType[ValueErrorType["Array"] = 6] = "Array";
    ValueErrorType[ValueErrorType["AsyncIterator"] = 7] = "AsyncIterator";
    ValueErrorType[ValueErrorType["BigIntExclusiveMaximum"] = 8] = "BigIntExclusiveMaximum";
    ValueErrorType[ValueErrorType["BigIntExclusiveMinimum"] = 9] = "BigIntExclusiveMinimum";
    ValueErrorType[ValueErrorType["BigIntMaximum"] = 10] = "BigIntMaximum";
    ValueErrorType[ValueErrorType["BigIntMinimum"] = 11] = "BigIntMinimum";
    ValueErrorType[ValueErrorType["BigIntMultipleOf"] = 12] = "BigIntMultipleOf";
    ValueErrorType[ValueErrorType["BigInt"] = 13] = "BigInt";
    ValueErrorType[ValueErrorType["Boolean"] = 14] = "Boolean";
    ValueErrorType[ValueErrorType["DateExclusiveMaximumTimestamp"] = 15] = "DateExclusiveMaximumTimestamp";
    ValueErrorType[ValueErrorType["DateExclusiveMinimumTimestamp"] = 16] = "DateExclusiveMinimumTimestamp";
    ValueErrorType[ValueErrorType["DateMaximumTimestamp"] = 17] = "DateMaximumTimestamp";
    ValueErrorType[ValueErrorType["DateMinimumTimestamp"] = 18] = "DateMinimumTimestamp";
    ValueErrorType[ValueErrorType["DateMultipleOfTimestamp"] = 19] = "DateMultipleOfTimestamp";
    ValueErrorType[ValueErrorType["Date"] = 20] = "Date";
    ValueErrorType[ValueErrorType["Function"] = 21] = "Function";
    ValueErrorType[ValueErrorType["IntegerExclusiveMaximum"] = 22] = "IntegerExclusiveMaximum";
    ValueErrorType[ValueErrorType["IntegerExclusiveMinimum"] = 23] = "IntegerExclusiveMinimum";
    ValueErrorType[ValueErrorType["IntegerMaximum"] = 24] = "IntegerMaximum";
    ValueErrorType[ValueErrorType["IntegerMinimum"] = 25] = "IntegerMinimum";
    ValueErrorType[ValueErrorType["IntegerMultipleOf"] = 26] = "IntegerMultipleOf";
    ValueErrorType[ValueErrorType["Integer"] = 27] = "Integer";
    ValueErrorType[ValueErrorType["IntersectUnevaluatedProperties"] = 28] = "IntersectUnevaluatedProperties";
    ValueErrorType[ValueErrorType["Intersect"] = 29] = "Intersect";
    ValueErrorType[ValueErrorType["Iterator"] = 30] = "Iterator";
    ValueErrorType[ValueErrorType["Kind"] = 31] = "Kind";
    ValueErrorType[ValueErrorType["Literal"] = 32] = "Literal";
    ValueErrorType[ValueErrorType["Never"] = 33] = "Never";
    ValueErrorType[ValueErrorType["Not"] = 34] = "Not";
    ValueErrorType[ValueErrorType["Null"] = 35] = "Null";
    ValueErrorType[ValueErrorType["NumberExclusiveMaximum"] = 36] = "NumberExclusiveMaximum";
    ValueErrorType[ValueErrorType["NumberExclusiveMinimum"] = 37] = "NumberExclusiveMinimum";
    ValueErrorType[ValueErrorType["NumberMaximum"] = 38] = "NumberMaximum";
    ValueErrorType[ValueErrorType["NumberMinimum"] = 39] = "NumberMinimum";
    ValueErrorType[ValueErrorType["NumberMultipleOf"] = 40] = "NumberMultipleOf";
    ValueErrorType[ValueErrorType["Number"] = 41] = "Number";
    ValueErrorType[ValueErrorType["ObjectAdditionalProperties"] = 42] = "ObjectAdditionalProperties";
    ValueErrorType[ValueErrorType["ObjectMaxProperties"] = 43] = "ObjectMaxProperties";
    ValueErrorType[ValueErrorType["ObjectMinProperties"] = 44] = "ObjectMinProperties";
    ValueErrorType[ValueErrorType["ObjectRequiredProperty"] = 45] = "ObjectRequiredProperty";
    ValueErrorType[ValueErrorType["Object"] = 46] = "Object";
    ValueErrorType[ValueErrorType["Promise"] = 47] = "Promise";
    ValueErrorType[ValueErrorType["RegExp"] = 48] = "RegExp";
    ValueErrorType[ValueErrorType["StringFormatUnknown"] = 49] = "StringFormatUnknown";
    ValueErrorType[ValueErrorType["StringFormat"] = 50] = "StringFormat";
    ValueErrorType[ValueErrorType["StringMaxLength"] = 51] = "StringMaxLength";
    ValueErrorType[ValueErrorType["StringMinLength"] = 52] = "StringMinLength";
    ValueErrorType[ValueErrorType["StringPattern"] = 53] = "StringPattern";
    ValueErrorType[ValueErrorType["String"] = 54] = "String";
    ValueErrorType[ValueErrorType["Symbol"] = 55] = "Symbol";
    ValueErrorType[ValueErrorType["TupleLength"] = 56] = "TupleLength";
    ValueErrorType[ValueErrorType["Tuple"] = 57] = "Tuple";
    ValueErrorType[ValueErrorType["Uint8ArrayMaxByteLength"] = 58] = "Uint8ArrayMaxByteLength";
    ValueErrorType[ValueErrorType["Uint8ArrayMinByteLength"] = 59] = "Uint8ArrayMinByteLength";
    ValueErrorType[ValueErrorType["Uint8Array"] = 60] = "Uint8Array";
    ValueErrorType[ValueErrorType["Undefined"] = 61] = "Undefined";
    ValueErrorType[ValueErrorType["Union"] = 62] = "Union";
    ValueErrorType[ValueErrorType["Void"] = 63] = "Void";
})(ValueErrorType || (ValueErrorType = {}));
// ------------------------------------------------------------------
// ValueErrors
// ------------------------------------------------------------------
class ValueErrorsUnknownTypeError extends error/* TypeBoxError */.i {
    constructor(schema) {
        super('Unknown type');
        this.schema = schema;
    }
}
// ------------------------------------------------------------------
// EscapeKey
// ------------------------------------------------------------------
function EscapeKey(key) {
    return key.replace(/~/g, '~0').replace(/\//g, '~1'); // RFC6901 Path
}
// ------------------------------------------------------------------
// Guards
// ------------------------------------------------------------------
function errors_IsDefined(value) {
    return value !== undefined;
}
// ------------------------------------------------------------------
// ValueErrorIterator
// ------------------------------------------------------------------
class ValueErrorIterator {
    constructor(iterator) {
        this.iterator = iterator;
    }
    [Symbol.iterator]() {
        return this.iterator;
    }
    /** Returns the first value error or undefined if no errors */
    First() {
        const next = this.iterator.next();
        return next.done ? undefined : next.value;
    }
}
// --------------------------------------------------------------------------
// Create
// --------------------------------------------------------------------------
function Create(errorType, schema, path, value, errors = []) {
    return {
        type: errorType,
        schema,
        path,
        value,
        message: GetErrorFunction()({ errorType, path, schema, value, errors }),
        errors,
    };
}
// --------------------------------------------------------------------------
// Types
// --------------------------------------------------------------------------
function* errors_FromAny(schema, references, path, value) { }
function* errors_FromArgument(schema, references, path, value) { }
function* errors_FromArray(schema, references, path, value) {
    if (!(0,guard/* IsArray */.QS)(value)) {
        return yield Create(ValueErrorType.Array, schema, path, value);
    }
    if (errors_IsDefined(schema.minItems) && !(value.length >= schema.minItems)) {
        yield Create(ValueErrorType.ArrayMinItems, schema, path, value);
    }
    if (errors_IsDefined(schema.maxItems) && !(value.length <= schema.maxItems)) {
        yield Create(ValueErrorType.ArrayMaxItems, schema, path, value);
    }
    for (let i = 0; i < value.length; i++) {
        yield* errors_Visit(schema.items, references, `${path}/${i}`, value[i]);
    }
    // prettier-ignore
    if (schema.uniqueItems === true && !((function () { const set = new Set(); for (const element of value) {
        const hashed = Hash(element);
        if (set.has(hashed)) {
            return false;
        }
        else {
            set.add(hashed);
        }
    } return true; })())) {
        yield Create(ValueErrorType.ArrayUniqueItems, schema, path, value);
    }
    // contains
    if (!(errors_IsDefined(schema.contains) || errors_IsDefined(schema.minContains) || errors_IsDefined(schema.maxContains))) {
        return;
    }
    const containsSchema = errors_IsDefined(schema.contains) ? schema.contains : (0,never/* Never */.p)();
    const containsCount = value.reduce((acc, value, index) => (errors_Visit(containsSchema, references, `${path}${index}`, value).next().done === true ? acc + 1 : acc), 0);
    if (containsCount === 0) {
        yield Create(ValueErrorType.ArrayContains, schema, path, value);
    }
    if ((0,guard/* IsNumber */.Mx)(schema.minContains) && containsCount < schema.minContains) {
        yield Create(ValueErrorType.ArrayMinContains, schema, path, value);
    }
    if ((0,guard/* IsNumber */.Mx)(schema.maxContains) && containsCount > schema.maxContains) {
        yield Create(ValueErrorType.ArrayMaxContains, schema, path, value);
    }
}
function* errors_FromAsyncIterator(schema, references, path, value) {
    if (!(0,guard/* IsAsyncIterator */.H1)(value))
        yield Create(ValueErrorType.AsyncIterator, schema, path, value);
}
function* errors_FromBigInt(schema, references, path, value) {
    if (!(0,guard/* IsBigInt */.cQ)(value))
        return yield Create(ValueErrorType.BigInt, schema, path, value);
    if (errors_IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
        yield Create(ValueErrorType.BigIntExclusiveMaximum, schema, path, value);
    }
    if (errors_IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
        yield Create(ValueErrorType.BigIntExclusiveMinimum, schema, path, value);
    }
    if (errors_IsDefined(schema.maximum) && !(value <= schema.maximum)) {
        yield Create(ValueErrorType.BigIntMaximum, schema, path, value);
    }
    if (errors_IsDefined(schema.minimum) && !(value >= schema.minimum)) {
        yield Create(ValueErrorType.BigIntMinimum, schema, path, value);
    }
    if (errors_IsDefined(schema.multipleOf) && !(value % schema.multipleOf === BigInt(0))) {
        yield Create(ValueErrorType.BigIntMultipleOf, schema, path, value);
    }
}
function* errors_FromBoolean(schema, references, path, value) {
    if (!(0,guard/* IsBoolean */.Zx)(value))
        yield Create(ValueErrorType.Boolean, schema, path, value);
}
function* errors_FromConstructor(schema, references, path, value) {
    yield* errors_Visit(schema.returns, references, path, value.prototype);
}
function* errors_FromDate(schema, references, path, value) {
    if (!(0,guard/* IsDate */.XF)(value))
        return yield Create(ValueErrorType.Date, schema, path, value);
    if (errors_IsDefined(schema.exclusiveMaximumTimestamp) && !(value.getTime() < schema.exclusiveMaximumTimestamp)) {
        yield Create(ValueErrorType.DateExclusiveMaximumTimestamp, schema, path, value);
    }
    if (errors_IsDefined(schema.exclusiveMinimumTimestamp) && !(value.getTime() > schema.exclusiveMinimumTimestamp)) {
        yield Create(ValueErrorType.DateExclusiveMinimumTimestamp, schema, path, value);
    }
    if (errors_IsDefined(schema.maximumTimestamp) && !(value.getTime() <= schema.maximumTimestamp)) {
        yield Create(ValueErrorType.DateMaximumTimestamp, schema, path, value);
    }
    if (errors_IsDefined(schema.minimumTimestamp) && !(value.getTime() >= schema.minimumTimestamp)) {
        yield Create(ValueErrorType.DateMinimumTimestamp, schema, path, value);
    }
    if (errors_IsDefined(schema.multipleOfTimestamp) && !(value.getTime() % schema.multipleOfTimestamp === 0)) {
        yield Create(ValueErrorType.DateMultipleOfTimestamp, schema, path, value);
    }
}
function* errors_FromFunction(schema, references, path, value) {
    if (!(0,guard/* IsFunction */.hg)(value))
        yield Create(ValueErrorType.Function, schema, path, value);
}
function* errors_FromImport(schema, references, path, value) {
    const definitions = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    yield* errors_Visit(target, [...references, ...definitions], path, value);
}
function* errors_FromInteger(schema, references, path, value) {
    if (!(0,guard/* IsInteger */.$p)(value))
        return yield Create(ValueErrorType.Integer, schema, path, value);
    if (errors_IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
        yield Create(ValueErrorType.IntegerExclusiveMaximum, schema, path, value);
    }
    if (errors_IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
        yield Create(ValueErrorType.IntegerExclusiveMinimum, schema, path, value);
    }
    if (errors_IsDefined(schema.maximum) && !(value <= schema.maximum)) {
        yield Create(ValueErrorType.IntegerMaximum, schema, path, value);
    }
    if (errors_IsDefined(schema.minimum) && !(value >= schema.minimum)) {
        yield Create(ValueErrorType.IntegerMinimum, schema, path, value);
    }
    if (errors_IsDefined(schema.multipleOf) && !(value % schema.multipleOf === 0)) {
        yield Create(ValueErrorType.IntegerMultipleOf, schema, path, value);
    }
}
function* errors_FromIntersect(schema, references, path, value) {
    let hasError = false;
    for (const inner of schema.allOf) {
        for (const error of errors_Visit(inner, references, path, value)) {
            hasError = true;
            yield error;
        }
    }
    if (hasError) {
        return yield Create(ValueErrorType.Intersect, schema, path, value);
    }
    if (schema.unevaluatedProperties === false) {
        const keyCheck = new RegExp((0,keyof_property_keys/* KeyOfPattern */.n)(schema));
        for (const valueKey of Object.getOwnPropertyNames(value)) {
            if (!keyCheck.test(valueKey)) {
                yield Create(ValueErrorType.IntersectUnevaluatedProperties, schema, `${path}/${valueKey}`, value);
            }
        }
    }
    if (typeof schema.unevaluatedProperties === 'object') {
        const keyCheck = new RegExp((0,keyof_property_keys/* KeyOfPattern */.n)(schema));
        for (const valueKey of Object.getOwnPropertyNames(value)) {
            if (!keyCheck.test(valueKey)) {
                const next = errors_Visit(schema.unevaluatedProperties, references, `${path}/${valueKey}`, value[valueKey]).next();
                if (!next.done)
                    yield next.value; // yield interior
            }
        }
    }
}
function* errors_FromIterator(schema, references, path, value) {
    if (!(0,guard/* IsIterator */.jo)(value))
        yield Create(ValueErrorType.Iterator, schema, path, value);
}
function* errors_FromLiteral(schema, references, path, value) {
    if (!(value === schema.const))
        yield Create(ValueErrorType.Literal, schema, path, value);
}
function* errors_FromNever(schema, references, path, value) {
    yield Create(ValueErrorType.Never, schema, path, value);
}
function* errors_FromNot(schema, references, path, value) {
    if (errors_Visit(schema.not, references, path, value).next().done === true)
        yield Create(ValueErrorType.Not, schema, path, value);
}
function* errors_FromNull(schema, references, path, value) {
    if (!(0,guard/* IsNull */.Ef)(value))
        yield Create(ValueErrorType.Null, schema, path, value);
}
function* errors_FromNumber(schema, references, path, value) {
    if (!policy/* TypeSystemPolicy */.Q.IsNumberLike(value))
        return yield Create(ValueErrorType.Number, schema, path, value);
    if (errors_IsDefined(schema.exclusiveMaximum) && !(value < schema.exclusiveMaximum)) {
        yield Create(ValueErrorType.NumberExclusiveMaximum, schema, path, value);
    }
    if (errors_IsDefined(schema.exclusiveMinimum) && !(value > schema.exclusiveMinimum)) {
        yield Create(ValueErrorType.NumberExclusiveMinimum, schema, path, value);
    }
    if (errors_IsDefined(schema.maximum) && !(value <= schema.maximum)) {
        yield Create(ValueErrorType.NumberMaximum, schema, path, value);
    }
    if (errors_IsDefined(schema.minimum) && !(value >= schema.minimum)) {
        yield Create(ValueErrorType.NumberMinimum, schema, path, value);
    }
    if (errors_IsDefined(schema.multipleOf) && !(value % schema.multipleOf === 0)) {
        yield Create(ValueErrorType.NumberMultipleOf, schema, path, value);
    }
}
function* errors_FromObject(schema, references, path, value) {
    if (!policy/* TypeSystemPolicy */.Q.IsObjectLike(value))
        return yield Create(ValueErrorType.Object, schema, path, value);
    if (errors_IsDefined(schema.minProperties) && !(Object.getOwnPropertyNames(value).length >= schema.minProperties)) {
        yield Create(ValueErrorType.ObjectMinProperties, schema, path, value);
    }
    if (errors_IsDefined(schema.maxProperties) && !(Object.getOwnPropertyNames(value).length <= schema.maxProperties)) {
        yield Create(ValueErrorType.ObjectMaxProperties, schema, path, value);
    }
    const requiredKeys = Array.isArray(schema.required) ? schema.required : [];
    const knownKeys = Object.getOwnPropertyNames(schema.properties);
    const unknownKeys = Object.getOwnPropertyNames(value);
    for (const requiredKey of requiredKeys) {
        if (unknownKeys.includes(requiredKey))
            continue;
        yield Create(ValueErrorType.ObjectRequiredProperty, schema.properties[requiredKey], `${path}/${EscapeKey(requiredKey)}`, undefined);
    }
    if (schema.additionalProperties === false) {
        for (const valueKey of unknownKeys) {
            if (!knownKeys.includes(valueKey)) {
                yield Create(ValueErrorType.ObjectAdditionalProperties, schema, `${path}/${EscapeKey(valueKey)}`, value[valueKey]);
            }
        }
    }
    if (typeof schema.additionalProperties === 'object') {
        for (const valueKey of unknownKeys) {
            if (knownKeys.includes(valueKey))
                continue;
            yield* errors_Visit(schema.additionalProperties, references, `${path}/${EscapeKey(valueKey)}`, value[valueKey]);
        }
    }
    for (const knownKey of knownKeys) {
        const property = schema.properties[knownKey];
        if (schema.required && schema.required.includes(knownKey)) {
            yield* errors_Visit(property, references, `${path}/${EscapeKey(knownKey)}`, value[knownKey]);
            if (ExtendsUndefinedCheck(schema) && !(knownKey in value)) {
                yield Create(ValueErrorType.ObjectRequiredProperty, property, `${path}/${EscapeKey(knownKey)}`, undefined);
            }
        }
        else {
            if (policy/* TypeSystemPolicy */.Q.IsExactOptionalProperty(value, knownKey)) {
                yield* errors_Visit(property, references, `${path}/${EscapeKey(knownKey)}`, value[knownKey]);
            }
        }
    }
}
function* errors_FromPromise(schema, references, path, value) {
    if (!(0,guard/* IsPromise */.OD)(value))
        yield Create(ValueErrorType.Promise, schema, path, value);
}
function* errors_FromRecord(schema, references, path, value) {
    if (!policy/* TypeSystemPolicy */.Q.IsRecordLike(value))
        return yield Create(ValueErrorType.Object, schema, path, value);
    if (errors_IsDefined(schema.minProperties) && !(Object.getOwnPropertyNames(value).length >= schema.minProperties)) {
        yield Create(ValueErrorType.ObjectMinProperties, schema, path, value);
    }
    if (errors_IsDefined(schema.maxProperties) && !(Object.getOwnPropertyNames(value).length <= schema.maxProperties)) {
        yield Create(ValueErrorType.ObjectMaxProperties, schema, path, value);
    }
    const [patternKey, patternSchema] = Object.entries(schema.patternProperties)[0];
    const regex = new RegExp(patternKey);
    for (const [propertyKey, propertyValue] of Object.entries(value)) {
        if (regex.test(propertyKey))
            yield* errors_Visit(patternSchema, references, `${path}/${EscapeKey(propertyKey)}`, propertyValue);
    }
    if (typeof schema.additionalProperties === 'object') {
        for (const [propertyKey, propertyValue] of Object.entries(value)) {
            if (!regex.test(propertyKey))
                yield* errors_Visit(schema.additionalProperties, references, `${path}/${EscapeKey(propertyKey)}`, propertyValue);
        }
    }
    if (schema.additionalProperties === false) {
        for (const [propertyKey, propertyValue] of Object.entries(value)) {
            if (regex.test(propertyKey))
                continue;
            return yield Create(ValueErrorType.ObjectAdditionalProperties, schema, `${path}/${EscapeKey(propertyKey)}`, propertyValue);
        }
    }
}
function* errors_FromRef(schema, references, path, value) {
    yield* errors_Visit(Deref(schema, references), references, path, value);
}
function* errors_FromRegExp(schema, references, path, value) {
    if (!(0,guard/* IsString */.IP)(value))
        return yield Create(ValueErrorType.String, schema, path, value);
    if (errors_IsDefined(schema.minLength) && !(value.length >= schema.minLength)) {
        yield Create(ValueErrorType.StringMinLength, schema, path, value);
    }
    if (errors_IsDefined(schema.maxLength) && !(value.length <= schema.maxLength)) {
        yield Create(ValueErrorType.StringMaxLength, schema, path, value);
    }
    const regex = new RegExp(schema.source, schema.flags);
    if (!regex.test(value)) {
        return yield Create(ValueErrorType.RegExp, schema, path, value);
    }
}
function* errors_FromString(schema, references, path, value) {
    if (!(0,guard/* IsString */.IP)(value))
        return yield Create(ValueErrorType.String, schema, path, value);
    if (errors_IsDefined(schema.minLength) && !(value.length >= schema.minLength)) {
        yield Create(ValueErrorType.StringMinLength, schema, path, value);
    }
    if (errors_IsDefined(schema.maxLength) && !(value.length <= schema.maxLength)) {
        yield Create(ValueErrorType.StringMaxLength, schema, path, value);
    }
    if ((0,guard/* IsString */.IP)(schema.pattern)) {
        const regex = new RegExp(schema.pattern);
        if (!regex.test(value)) {
            yield Create(ValueErrorType.StringPattern, schema, path, value);
        }
    }
    if ((0,guard/* IsString */.IP)(schema.format)) {
        if (!Has(schema.format)) {
            yield Create(ValueErrorType.StringFormatUnknown, schema, path, value);
        }
        else {
            const format = Get(schema.format);
            if (!format(value)) {
                yield Create(ValueErrorType.StringFormat, schema, path, value);
            }
        }
    }
}
function* errors_FromSymbol(schema, references, path, value) {
    if (!(0,guard/* IsSymbol */.nH)(value))
        yield Create(ValueErrorType.Symbol, schema, path, value);
}
function* errors_FromTemplateLiteral(schema, references, path, value) {
    if (!(0,guard/* IsString */.IP)(value))
        return yield Create(ValueErrorType.String, schema, path, value);
    const regex = new RegExp(schema.pattern);
    if (!regex.test(value)) {
        yield Create(ValueErrorType.StringPattern, schema, path, value);
    }
}
function* errors_FromThis(schema, references, path, value) {
    yield* errors_Visit(Deref(schema, references), references, path, value);
}
function* errors_FromTuple(schema, references, path, value) {
    if (!(0,guard/* IsArray */.QS)(value))
        return yield Create(ValueErrorType.Tuple, schema, path, value);
    if (schema.items === undefined && !(value.length === 0)) {
        return yield Create(ValueErrorType.TupleLength, schema, path, value);
    }
    if (!(value.length === schema.maxItems)) {
        return yield Create(ValueErrorType.TupleLength, schema, path, value);
    }
    if (!schema.items) {
        return;
    }
    for (let i = 0; i < schema.items.length; i++) {
        yield* errors_Visit(schema.items[i], references, `${path}/${i}`, value[i]);
    }
}
function* errors_FromUndefined(schema, references, path, value) {
    if (!(0,guard/* IsUndefined */.R1)(value))
        yield Create(ValueErrorType.Undefined, schema, path, value);
}
function* errors_FromUnion(schema, references, path, value) {
    if (Check(schema, references, value))
        return;
    const errors = schema.anyOf.map((variant) => new ValueErrorIterator(errors_Visit(variant, references, path, value)));
    yield Create(ValueErrorType.Union, schema, path, value, errors);
}
function* errors_FromUint8Array(schema, references, path, value) {
    if (!(0,guard/* IsUint8Array */.G4)(value))
        return yield Create(ValueErrorType.Uint8Array, schema, path, value);
    if (errors_IsDefined(schema.maxByteLength) && !(value.length <= schema.maxByteLength)) {
        yield Create(ValueErrorType.Uint8ArrayMaxByteLength, schema, path, value);
    }
    if (errors_IsDefined(schema.minByteLength) && !(value.length >= schema.minByteLength)) {
        yield Create(ValueErrorType.Uint8ArrayMinByteLength, schema, path, value);
    }
}
function* errors_FromUnknown(schema, references, path, value) { }
function* errors_FromVoid(schema, references, path, value) {
    if (!policy/* TypeSystemPolicy */.Q.IsVoidLike(value))
        yield Create(ValueErrorType.Void, schema, path, value);
}
function* errors_FromKind(schema, references, path, value) {
    const check = type_Get(schema[symbols/* Kind */.b8]);
    if (!check(schema, value))
        yield Create(ValueErrorType.Kind, schema, path, value);
}
function* errors_Visit(schema, references, path, value) {
    const references_ = errors_IsDefined(schema.$id) ? [...references, schema] : references;
    const schema_ = schema;
    switch (schema_[symbols/* Kind */.b8]) {
        case 'Any':
            return yield* errors_FromAny(schema_, references_, path, value);
        case 'Argument':
            return yield* errors_FromArgument(schema_, references_, path, value);
        case 'Array':
            return yield* errors_FromArray(schema_, references_, path, value);
        case 'AsyncIterator':
            return yield* errors_FromAsyncIterator(schema_, references_, path, value);
        case 'BigInt':
            return yield* errors_FromBigInt(schema_, references_, path, value);
        case 'Boolean':
            return yield* errors_FromBoolean(schema_, references_, path, value);
        case 'Constructor':
            return yield* errors_FromConstructor(schema_, references_, path, value);
        case 'Date':
            return yield* errors_FromDate(schema_, references_, path, value);
        case 'Function':
            return yield* errors_FromFunction(schema_, references_, path, value);
        case 'Import':
            return yield* errors_FromImport(schema_, references_, path, value);
        case 'Integer':
            return yield* errors_FromInteger(schema_, references_, path, value);
        case 'Intersect':
            return yield* errors_FromIntersect(schema_, references_, path, value);
        case 'Iterator':
            return yield* errors_FromIterator(schema_, references_, path, value);
        case 'Literal':
            return yield* errors_FromLiteral(schema_, references_, path, value);
        case 'Never':
            return yield* errors_FromNever(schema_, references_, path, value);
        case 'Not':
            return yield* errors_FromNot(schema_, references_, path, value);
        case 'Null':
            return yield* errors_FromNull(schema_, references_, path, value);
        case 'Number':
            return yield* errors_FromNumber(schema_, references_, path, value);
        case 'Object':
            return yield* errors_FromObject(schema_, references_, path, value);
        case 'Promise':
            return yield* errors_FromPromise(schema_, references_, path, value);
        case 'Record':
            return yield* errors_FromRecord(schema_, references_, path, value);
        case 'Ref':
            return yield* errors_FromRef(schema_, references_, path, value);
        case 'RegExp':
            return yield* errors_FromRegExp(schema_, references_, path, value);
        case 'String':
            return yield* errors_FromString(schema_, references_, path, value);
        case 'Symbol':
            return yield* errors_FromSymbol(schema_, references_, path, value);
        case 'TemplateLiteral':
            return yield* errors_FromTemplateLiteral(schema_, references_, path, value);
        case 'This':
            return yield* errors_FromThis(schema_, references_, path, value);
        case 'Tuple':
            return yield* errors_FromTuple(schema_, references_, path, value);
        case 'Undefined':
            return yield* errors_FromUndefined(schema_, references_, path, value);
        case 'Union':
            return yield* errors_FromUnion(schema_, references_, path, value);
        case 'Uint8Array':
            return yield* errors_FromUint8Array(schema_, references_, path, value);
        case 'Unknown':
            return yield* errors_FromUnknown(schema_, references_, path, value);
        case 'Void':
            return yield* errors_FromVoid(schema_, references_, path, value);
        default:
            if (!type_Has(schema_[symbols/* Kind */.b8]))
                throw new ValueErrorsUnknownTypeError(schema);
            return yield* errors_FromKind(schema_, references_, path, value);
    }
}
/** Returns an iterator for each error in this value. */
function Errors(...args) {
    const iterator = args.length === 3 ? errors_Visit(args[0], args[1], '', args[2]) : errors_Visit(args[0], [], '', args[1]);
    return new ValueErrorIterator(iterator);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/assert/assert.mjs
var __classPrivateFieldSet = (undefined && undefined.__classPrivateFieldSet) || function (receiver, state, value, kind, f) {
    if (kind === "m") throw new TypeError("Private method is not writable");
    if (kind === "a" && !f) throw new TypeError("Private accessor was defined without a setter");
    if (typeof state === "function" ? receiver !== state || !f : !state.has(receiver)) throw new TypeError("Cannot write private member to an object whose class did not declare it");
    return (kind === "a" ? f.call(receiver, value) : f ? f.value = value : state.set(receiver, value)), value;
};
var __classPrivateFieldGet = (undefined && undefined.__classPrivateFieldGet) || function (receiver, state, kind, f) {
    if (kind === "a" && !f) throw new TypeError("Private accessor was defined without a getter");
    if (typeof state === "function" ? receiver !== state || !f : !state.has(receiver)) throw new TypeError("Cannot read private member from an object whose class did not declare it");
    return kind === "m" ? f : kind === "a" ? f.call(receiver) : f ? f.value : state.get(receiver);
};
var _AssertError_instances, _AssertError_iterator, _AssertError_Iterator;



// ------------------------------------------------------------------
// AssertError
// ------------------------------------------------------------------
class AssertError extends error/* TypeBoxError */.i {
    constructor(iterator) {
        const error = iterator.First();
        super(error === undefined ? 'Invalid Value' : error.message);
        _AssertError_instances.add(this);
        _AssertError_iterator.set(this, void 0);
        __classPrivateFieldSet(this, _AssertError_iterator, iterator, "f");
        this.error = error;
    }
    /** Returns an iterator for each error in this value. */
    Errors() {
        return new ValueErrorIterator(__classPrivateFieldGet(this, _AssertError_instances, "m", _AssertError_Iterator).call(this));
    }
}
_AssertError_iterator = new WeakMap(), _AssertError_instances = new WeakSet(), _AssertError_Iterator = function* _AssertError_Iterator() {
    if (this.error)
        yield this.error;
    yield* __classPrivateFieldGet(this, _AssertError_iterator, "f");
};
// ------------------------------------------------------------------
// AssertValue
// ------------------------------------------------------------------
function AssertValue(schema, references, value) {
    if (Check(schema, references, value))
        return;
    throw new AssertError(Errors(schema, references, value));
}
/** Asserts a value matches the given type or throws an `AssertError` if invalid */
function Assert(...args) {
    return args.length === 3 ? AssertValue(args[0], args[1], args[2]) : AssertValue(args[0], [], args[1]);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/clone/clone.mjs
// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Clonable
// ------------------------------------------------------------------
function clone_FromObject(value) {
    const Acc = {};
    for (const key of Object.getOwnPropertyNames(value)) {
        Acc[key] = Clone(value[key]);
    }
    for (const key of Object.getOwnPropertySymbols(value)) {
        Acc[key] = Clone(value[key]);
    }
    return Acc;
}
function clone_FromArray(value) {
    return value.map((element) => Clone(element));
}
function FromTypedArray(value) {
    return value.slice();
}
function FromMap(value) {
    return new Map(Clone([...value.entries()]));
}
function FromSet(value) {
    return new Set(Clone([...value.entries()]));
}
function clone_FromDate(value) {
    return new Date(value.toISOString());
}
function FromValue(value) {
    return value;
}
// ------------------------------------------------------------------
// Clone
// ------------------------------------------------------------------
/** Returns a clone of the given value */
function Clone(value) {
    if ((0,guard/* IsArray */.QS)(value))
        return clone_FromArray(value);
    if ((0,guard/* IsDate */.XF)(value))
        return clone_FromDate(value);
    if ((0,guard/* IsTypedArray */.Qb)(value))
        return FromTypedArray(value);
    if ((0,guard/* IsMap */.N6)(value))
        return FromMap(value);
    if ((0,guard/* IsSet */.Ts)(value))
        return FromSet(value);
    if ((0,guard/* IsObject */.av)(value))
        return clone_FromObject(value);
    if ((0,guard/* IsValueType */.u$)(value))
        return FromValue(value);
    throw new Error('ValueClone: Unable to clone value');
}

// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/template-literal/finite.mjs
var finite = __webpack_require__(169);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/template-literal/generate.mjs
var generate = __webpack_require__(917);
;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/create/create.mjs









// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
class ValueCreateError extends error/* TypeBoxError */.i {
    constructor(schema, message) {
        super(message);
        this.schema = schema;
    }
}
// ------------------------------------------------------------------
// Default
// ------------------------------------------------------------------
function FromDefault(value) {
    return (0,guard/* IsFunction */.hg)(value) ? value() : Clone(value);
}
// ------------------------------------------------------------------
// Create
// ------------------------------------------------------------------
function create_FromAny(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return {};
    }
}
function create_FromArgument(schema, references) {
    return {};
}
function create_FromArray(schema, references) {
    if (schema.uniqueItems === true && !(0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        throw new ValueCreateError(schema, 'Array with the uniqueItems constraint requires a default value');
    }
    else if ('contains' in schema && !(0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        throw new ValueCreateError(schema, 'Array with the contains constraint requires a default value');
    }
    else if ('default' in schema) {
        return FromDefault(schema.default);
    }
    else if (schema.minItems !== undefined) {
        return Array.from({ length: schema.minItems }).map((item) => {
            return create_Visit(schema.items, references);
        });
    }
    else {
        return [];
    }
}
function create_FromAsyncIterator(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return (async function* () { })();
    }
}
function create_FromBigInt(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return BigInt(0);
    }
}
function create_FromBoolean(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return false;
    }
}
function create_FromConstructor(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        const value = create_Visit(schema.returns, references);
        if (typeof value === 'object' && !Array.isArray(value)) {
            return class {
                constructor() {
                    for (const [key, val] of Object.entries(value)) {
                        const self = this;
                        self[key] = val;
                    }
                }
            };
        }
        else {
            return class {
            };
        }
    }
}
function create_FromDate(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else if (schema.minimumTimestamp !== undefined) {
        return new Date(schema.minimumTimestamp);
    }
    else {
        return new Date();
    }
}
function create_FromFunction(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return () => create_Visit(schema.returns, references);
    }
}
function create_FromImport(schema, references) {
    const definitions = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    return create_Visit(target, [...references, ...definitions]);
}
function create_FromInteger(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else if (schema.minimum !== undefined) {
        return schema.minimum;
    }
    else {
        return 0;
    }
}
function create_FromIntersect(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        // --------------------------------------------------------------
        // Note: The best we can do here is attempt to instance each
        // sub type and apply through object assign. For non-object
        // sub types, we just escape the assignment and just return
        // the value. In the latter case, this is typically going to
        // be a consequence of an illogical intersection.
        // --------------------------------------------------------------
        const value = schema.allOf.reduce((acc, schema) => {
            const next = create_Visit(schema, references);
            return typeof next === 'object' ? { ...acc, ...next } : next;
        }, {});
        if (!Check(schema, references, value))
            throw new ValueCreateError(schema, 'Intersect produced invalid value. Consider using a default value.');
        return value;
    }
}
function create_FromIterator(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return (function* () { })();
    }
}
function create_FromLiteral(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return schema.const;
    }
}
function create_FromNever(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        throw new ValueCreateError(schema, 'Never types cannot be created. Consider using a default value.');
    }
}
function create_FromNot(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        throw new ValueCreateError(schema, 'Not types must have a default value');
    }
}
function create_FromNull(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return null;
    }
}
function create_FromNumber(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else if (schema.minimum !== undefined) {
        return schema.minimum;
    }
    else {
        return 0;
    }
}
function create_FromObject(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        const required = new Set(schema.required);
        const Acc = {};
        for (const [key, subschema] of Object.entries(schema.properties)) {
            if (!required.has(key))
                continue;
            Acc[key] = create_Visit(subschema, references);
        }
        return Acc;
    }
}
function create_FromPromise(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return Promise.resolve(create_Visit(schema.item, references));
    }
}
function create_FromRecord(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return {};
    }
}
function create_FromRef(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return create_Visit(Deref(schema, references), references);
    }
}
function create_FromRegExp(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        throw new ValueCreateError(schema, 'RegExp types cannot be created. Consider using a default value.');
    }
}
function create_FromString(schema, references) {
    if (schema.pattern !== undefined) {
        if (!(0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
            throw new ValueCreateError(schema, 'String types with patterns must specify a default value');
        }
        else {
            return FromDefault(schema.default);
        }
    }
    else if (schema.format !== undefined) {
        if (!(0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
            throw new ValueCreateError(schema, 'String types with formats must specify a default value');
        }
        else {
            return FromDefault(schema.default);
        }
    }
    else {
        if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
            return FromDefault(schema.default);
        }
        else if (schema.minLength !== undefined) {
            // prettier-ignore
            return Array.from({ length: schema.minLength }).map(() => ' ').join('');
        }
        else {
            return '';
        }
    }
}
function create_FromSymbol(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else if ('value' in schema) {
        return Symbol.for(schema.value);
    }
    else {
        return Symbol();
    }
}
function create_FromTemplateLiteral(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    if (!(0,finite/* IsTemplateLiteralFinite */.VA)(schema))
        throw new ValueCreateError(schema, 'Can only create template literals that produce a finite variants. Consider using a default value.');
    const generated = (0,generate/* TemplateLiteralGenerate */.vl)(schema);
    return generated[0];
}
function create_FromThis(schema, references) {
    if (recursiveDepth++ > recursiveMaxDepth)
        throw new ValueCreateError(schema, 'Cannot create recursive type as it appears possibly infinite. Consider using a default.');
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return create_Visit(Deref(schema, references), references);
    }
}
function create_FromTuple(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    if (schema.items === undefined) {
        return [];
    }
    else {
        return Array.from({ length: schema.minItems }).map((_, index) => create_Visit(schema.items[index], references));
    }
}
function create_FromUndefined(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return undefined;
    }
}
function create_FromUnion(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else if (schema.anyOf.length === 0) {
        throw new Error('ValueCreate.Union: Cannot create Union with zero variants');
    }
    else {
        return create_Visit(schema.anyOf[0], references);
    }
}
function create_FromUint8Array(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else if (schema.minByteLength !== undefined) {
        return new Uint8Array(schema.minByteLength);
    }
    else {
        return new Uint8Array(0);
    }
}
function create_FromUnknown(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return {};
    }
}
function create_FromVoid(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        return void 0;
    }
}
function create_FromKind(schema, references) {
    if ((0,guard/* HasPropertyKey */.LT)(schema, 'default')) {
        return FromDefault(schema.default);
    }
    else {
        throw new Error('User defined types must specify a default value');
    }
}
function create_Visit(schema, references) {
    const references_ = Pushref(schema, references);
    const schema_ = schema;
    switch (schema_[symbols/* Kind */.b8]) {
        case 'Any':
            return create_FromAny(schema_, references_);
        case 'Argument':
            return create_FromArgument(schema_, references_);
        case 'Array':
            return create_FromArray(schema_, references_);
        case 'AsyncIterator':
            return create_FromAsyncIterator(schema_, references_);
        case 'BigInt':
            return create_FromBigInt(schema_, references_);
        case 'Boolean':
            return create_FromBoolean(schema_, references_);
        case 'Constructor':
            return create_FromConstructor(schema_, references_);
        case 'Date':
            return create_FromDate(schema_, references_);
        case 'Function':
            return create_FromFunction(schema_, references_);
        case 'Import':
            return create_FromImport(schema_, references_);
        case 'Integer':
            return create_FromInteger(schema_, references_);
        case 'Intersect':
            return create_FromIntersect(schema_, references_);
        case 'Iterator':
            return create_FromIterator(schema_, references_);
        case 'Literal':
            return create_FromLiteral(schema_, references_);
        case 'Never':
            return create_FromNever(schema_, references_);
        case 'Not':
            return create_FromNot(schema_, references_);
        case 'Null':
            return create_FromNull(schema_, references_);
        case 'Number':
            return create_FromNumber(schema_, references_);
        case 'Object':
            return create_FromObject(schema_, references_);
        case 'Promise':
            return create_FromPromise(schema_, references_);
        case 'Record':
            return create_FromRecord(schema_, references_);
        case 'Ref':
            return create_FromRef(schema_, references_);
        case 'RegExp':
            return create_FromRegExp(schema_, references_);
        case 'String':
            return create_FromString(schema_, references_);
        case 'Symbol':
            return create_FromSymbol(schema_, references_);
        case 'TemplateLiteral':
            return create_FromTemplateLiteral(schema_, references_);
        case 'This':
            return create_FromThis(schema_, references_);
        case 'Tuple':
            return create_FromTuple(schema_, references_);
        case 'Undefined':
            return create_FromUndefined(schema_, references_);
        case 'Union':
            return create_FromUnion(schema_, references_);
        case 'Uint8Array':
            return create_FromUint8Array(schema_, references_);
        case 'Unknown':
            return create_FromUnknown(schema_, references_);
        case 'Void':
            return create_FromVoid(schema_, references_);
        default:
            if (!type_Has(schema_[symbols/* Kind */.b8]))
                throw new ValueCreateError(schema_, 'Unknown type');
            return create_FromKind(schema_, references_);
    }
}
// ------------------------------------------------------------------
// State
// ------------------------------------------------------------------
const recursiveMaxDepth = 512;
let recursiveDepth = 0;
/** Creates a value from the given schema */
function create_Create(...args) {
    recursiveDepth = 0;
    return args.length === 2 ? create_Visit(args[0], args[1]) : create_Visit(args[0], []);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/cast/cast.mjs







// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
class ValueCastError extends error/* TypeBoxError */.i {
    constructor(schema, message) {
        super(message);
        this.schema = schema;
    }
}
// ------------------------------------------------------------------
// The following logic assigns a score to a schema based on how well
// it matches a given value. For object types, the score is calculated
// by evaluating each property of the value against the schema's
// properties. To avoid bias towards objects with many properties,
// each property contributes equally to the total score. Properties
// that exactly match literal values receive the highest possible
// score, as literals are often used as discriminators in union types.
// ------------------------------------------------------------------
function ScoreUnion(schema, references, value) {
    if (schema[symbols/* Kind */.b8] === 'Object' && typeof value === 'object' && !(0,guard/* IsNull */.Ef)(value)) {
        const object = schema;
        const keys = Object.getOwnPropertyNames(value);
        const entries = Object.entries(object.properties);
        return entries.reduce((acc, [key, schema]) => {
            const literal = schema[symbols/* Kind */.b8] === 'Literal' && schema.const === value[key] ? 100 : 0;
            const checks = Check(schema, references, value[key]) ? 10 : 0;
            const exists = keys.includes(key) ? 1 : 0;
            return acc + (literal + checks + exists);
        }, 0);
    }
    else if (schema[symbols/* Kind */.b8] === 'Union') {
        const schemas = schema.anyOf.map((schema) => Deref(schema, references));
        const scores = schemas.map((schema) => ScoreUnion(schema, references, value));
        return Math.max(...scores);
    }
    else {
        return Check(schema, references, value) ? 1 : 0;
    }
}
function SelectUnion(union, references, value) {
    const schemas = union.anyOf.map((schema) => Deref(schema, references));
    let [select, best] = [schemas[0], 0];
    for (const schema of schemas) {
        const score = ScoreUnion(schema, references, value);
        if (score > best) {
            select = schema;
            best = score;
        }
    }
    return select;
}
function CastUnion(union, references, value) {
    if ('default' in union) {
        return typeof value === 'function' ? union.default : Clone(union.default);
    }
    else {
        const schema = SelectUnion(union, references, value);
        return Cast(schema, references, value);
    }
}
// ------------------------------------------------------------------
// Default
// ------------------------------------------------------------------
function DefaultClone(schema, references, value) {
    return Check(schema, references, value) ? Clone(value) : create_Create(schema, references);
}
function Default(schema, references, value) {
    return Check(schema, references, value) ? value : create_Create(schema, references);
}
// ------------------------------------------------------------------
// Cast
// ------------------------------------------------------------------
function cast_FromArray(schema, references, value) {
    if (Check(schema, references, value))
        return Clone(value);
    const created = (0,guard/* IsArray */.QS)(value) ? Clone(value) : create_Create(schema, references);
    const minimum = (0,guard/* IsNumber */.Mx)(schema.minItems) && created.length < schema.minItems ? [...created, ...Array.from({ length: schema.minItems - created.length }, () => null)] : created;
    const maximum = (0,guard/* IsNumber */.Mx)(schema.maxItems) && minimum.length > schema.maxItems ? minimum.slice(0, schema.maxItems) : minimum;
    const casted = maximum.map((value) => cast_Visit(schema.items, references, value));
    if (schema.uniqueItems !== true)
        return casted;
    const unique = [...new Set(casted)];
    if (!Check(schema, references, unique))
        throw new ValueCastError(schema, 'Array cast produced invalid data due to uniqueItems constraint');
    return unique;
}
function cast_FromConstructor(schema, references, value) {
    if (Check(schema, references, value))
        return create_Create(schema, references);
    const required = new Set(schema.returns.required || []);
    const result = function () { };
    for (const [key, property] of Object.entries(schema.returns.properties)) {
        if (!required.has(key) && value.prototype[key] === undefined)
            continue;
        result.prototype[key] = cast_Visit(property, references, value.prototype[key]);
    }
    return result;
}
function cast_FromImport(schema, references, value) {
    const definitions = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    return cast_Visit(target, [...references, ...definitions], value);
}
// ------------------------------------------------------------------
// Intersect
// ------------------------------------------------------------------
function IntersectAssign(correct, value) {
    // trust correct on mismatch | value on non-object
    if (((0,guard/* IsObject */.av)(correct) && !(0,guard/* IsObject */.av)(value)) || (!(0,guard/* IsObject */.av)(correct) && (0,guard/* IsObject */.av)(value)))
        return correct;
    if (!(0,guard/* IsObject */.av)(correct) || !(0,guard/* IsObject */.av)(value))
        return value;
    return globalThis.Object.getOwnPropertyNames(correct).reduce((result, key) => {
        const property = key in value ? IntersectAssign(correct[key], value[key]) : correct[key];
        return { ...result, [key]: property };
    }, {});
}
function cast_FromIntersect(schema, references, value) {
    if (Check(schema, references, value))
        return value;
    const correct = create_Create(schema, references);
    const assigned = IntersectAssign(correct, value);
    return Check(schema, references, assigned) ? assigned : correct;
}
function cast_FromNever(schema, references, value) {
    throw new ValueCastError(schema, 'Never types cannot be cast');
}
function cast_FromObject(schema, references, value) {
    if (Check(schema, references, value))
        return value;
    if (value === null || typeof value !== 'object')
        return create_Create(schema, references);
    const required = new Set(schema.required || []);
    const result = {};
    for (const [key, property] of Object.entries(schema.properties)) {
        if (!required.has(key) && value[key] === undefined)
            continue;
        result[key] = cast_Visit(property, references, value[key]);
    }
    // additional schema properties
    if (typeof schema.additionalProperties === 'object') {
        const propertyNames = Object.getOwnPropertyNames(schema.properties);
        for (const propertyName of Object.getOwnPropertyNames(value)) {
            if (propertyNames.includes(propertyName))
                continue;
            result[propertyName] = cast_Visit(schema.additionalProperties, references, value[propertyName]);
        }
    }
    return result;
}
function cast_FromRecord(schema, references, value) {
    if (Check(schema, references, value))
        return Clone(value);
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date)
        return create_Create(schema, references);
    const subschemaPropertyName = Object.getOwnPropertyNames(schema.patternProperties)[0];
    const subschema = schema.patternProperties[subschemaPropertyName];
    const result = {};
    for (const [propKey, propValue] of Object.entries(value)) {
        result[propKey] = cast_Visit(subschema, references, propValue);
    }
    return result;
}
function cast_FromRef(schema, references, value) {
    return cast_Visit(Deref(schema, references), references, value);
}
function cast_FromThis(schema, references, value) {
    return cast_Visit(Deref(schema, references), references, value);
}
function cast_FromTuple(schema, references, value) {
    if (Check(schema, references, value))
        return Clone(value);
    if (!(0,guard/* IsArray */.QS)(value))
        return create_Create(schema, references);
    if (schema.items === undefined)
        return [];
    return schema.items.map((schema, index) => cast_Visit(schema, references, value[index]));
}
function cast_FromUnion(schema, references, value) {
    return Check(schema, references, value) ? Clone(value) : CastUnion(schema, references, value);
}
function cast_Visit(schema, references, value) {
    const references_ = (0,guard/* IsString */.IP)(schema.$id) ? Pushref(schema, references) : references;
    const schema_ = schema;
    switch (schema[symbols/* Kind */.b8]) {
        // --------------------------------------------------------------
        // Structural
        // --------------------------------------------------------------
        case 'Array':
            return cast_FromArray(schema_, references_, value);
        case 'Constructor':
            return cast_FromConstructor(schema_, references_, value);
        case 'Import':
            return cast_FromImport(schema_, references_, value);
        case 'Intersect':
            return cast_FromIntersect(schema_, references_, value);
        case 'Never':
            return cast_FromNever(schema_, references_, value);
        case 'Object':
            return cast_FromObject(schema_, references_, value);
        case 'Record':
            return cast_FromRecord(schema_, references_, value);
        case 'Ref':
            return cast_FromRef(schema_, references_, value);
        case 'This':
            return cast_FromThis(schema_, references_, value);
        case 'Tuple':
            return cast_FromTuple(schema_, references_, value);
        case 'Union':
            return cast_FromUnion(schema_, references_, value);
        // --------------------------------------------------------------
        // DefaultClone
        // --------------------------------------------------------------
        case 'Date':
        case 'Symbol':
        case 'Uint8Array':
            return DefaultClone(schema, references, value);
        // --------------------------------------------------------------
        // Default
        // --------------------------------------------------------------
        default:
            return Default(schema_, references_, value);
    }
}
/** Casts a value into a given type. The return value will retain as much information of the original value as possible. */
function Cast(...args) {
    return args.length === 3 ? cast_Visit(args[0], args[1], args[2]) : cast_Visit(args[0], [], args[1]);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/clean/clean.mjs





// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------
// prettier-ignore

// ------------------------------------------------------------------
// TypeGuard
// ------------------------------------------------------------------
// prettier-ignore

// ------------------------------------------------------------------
// IsCheckable
// ------------------------------------------------------------------
function IsCheckable(schema) {
    return (0,kind/* IsKind */.nY)(schema) && schema[symbols/* Kind */.b8] !== 'Unsafe';
}
// ------------------------------------------------------------------
// Types
// ------------------------------------------------------------------
function clean_FromArray(schema, references, value) {
    if (!(0,guard/* IsArray */.QS)(value))
        return value;
    return value.map((value) => clean_Visit(schema.items, references, value));
}
function clean_FromImport(schema, references, value) {
    const definitions = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    return clean_Visit(target, [...references, ...definitions], value);
}
function clean_FromIntersect(schema, references, value) {
    const unevaluatedProperties = schema.unevaluatedProperties;
    const intersections = schema.allOf.map((schema) => clean_Visit(schema, references, Clone(value)));
    const composite = intersections.reduce((acc, value) => ((0,guard/* IsObject */.av)(value) ? { ...acc, ...value } : value), {});
    if (!(0,guard/* IsObject */.av)(value) || !(0,guard/* IsObject */.av)(composite) || !(0,kind/* IsKind */.nY)(unevaluatedProperties))
        return composite;
    const knownkeys = (0,keyof_property_keys/* KeyOfPropertyKeys */.g)(schema);
    for (const key of Object.getOwnPropertyNames(value)) {
        if (knownkeys.includes(key))
            continue;
        if (Check(unevaluatedProperties, references, value[key])) {
            composite[key] = clean_Visit(unevaluatedProperties, references, value[key]);
        }
    }
    return composite;
}
function clean_FromObject(schema, references, value) {
    if (!(0,guard/* IsObject */.av)(value) || (0,guard/* IsArray */.QS)(value))
        return value; // Check IsArray for AllowArrayObject configuration
    const additionalProperties = schema.additionalProperties;
    for (const key of Object.getOwnPropertyNames(value)) {
        if ((0,guard/* HasPropertyKey */.LT)(schema.properties, key)) {
            value[key] = clean_Visit(schema.properties[key], references, value[key]);
            continue;
        }
        if ((0,kind/* IsKind */.nY)(additionalProperties) && Check(additionalProperties, references, value[key])) {
            value[key] = clean_Visit(additionalProperties, references, value[key]);
            continue;
        }
        delete value[key];
    }
    return value;
}
function clean_FromRecord(schema, references, value) {
    if (!(0,guard/* IsObject */.av)(value))
        return value;
    const additionalProperties = schema.additionalProperties;
    const propertyKeys = Object.getOwnPropertyNames(value);
    const [propertyKey, propertySchema] = Object.entries(schema.patternProperties)[0];
    const propertyKeyTest = new RegExp(propertyKey);
    for (const key of propertyKeys) {
        if (propertyKeyTest.test(key)) {
            value[key] = clean_Visit(propertySchema, references, value[key]);
            continue;
        }
        if ((0,kind/* IsKind */.nY)(additionalProperties) && Check(additionalProperties, references, value[key])) {
            value[key] = clean_Visit(additionalProperties, references, value[key]);
            continue;
        }
        delete value[key];
    }
    return value;
}
function clean_FromRef(schema, references, value) {
    return clean_Visit(Deref(schema, references), references, value);
}
function clean_FromThis(schema, references, value) {
    return clean_Visit(Deref(schema, references), references, value);
}
function clean_FromTuple(schema, references, value) {
    if (!(0,guard/* IsArray */.QS)(value))
        return value;
    if ((0,guard/* IsUndefined */.R1)(schema.items))
        return [];
    const length = Math.min(value.length, schema.items.length);
    for (let i = 0; i < length; i++) {
        value[i] = clean_Visit(schema.items[i], references, value[i]);
    }
    // prettier-ignore
    return value.length > length
        ? value.slice(0, length)
        : value;
}
function clean_FromUnion(schema, references, value) {
    for (const inner of schema.anyOf) {
        if (IsCheckable(inner) && Check(inner, references, value)) {
            return clean_Visit(inner, references, value);
        }
    }
    return value;
}
function clean_Visit(schema, references, value) {
    const references_ = (0,guard/* IsString */.IP)(schema.$id) ? Pushref(schema, references) : references;
    const schema_ = schema;
    switch (schema_[symbols/* Kind */.b8]) {
        case 'Array':
            return clean_FromArray(schema_, references_, value);
        case 'Import':
            return clean_FromImport(schema_, references_, value);
        case 'Intersect':
            return clean_FromIntersect(schema_, references_, value);
        case 'Object':
            return clean_FromObject(schema_, references_, value);
        case 'Record':
            return clean_FromRecord(schema_, references_, value);
        case 'Ref':
            return clean_FromRef(schema_, references_, value);
        case 'This':
            return clean_FromThis(schema_, references_, value);
        case 'Tuple':
            return clean_FromTuple(schema_, references_, value);
        case 'Union':
            return clean_FromUnion(schema_, references_, value);
        default:
            return value;
    }
}
/** `[Mutable]` Removes excess properties from a value and returns the result. This function does not check the value and returns an unknown type. You should Check the result before use. Clean is a mutable operation. To avoid mutation, Clone the value first. */
function Clean(...args) {
    return args.length === 3 ? clean_Visit(args[0], args[1], args[2]) : clean_Visit(args[0], [], args[1]);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/convert/convert.mjs




// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Conversions
// ------------------------------------------------------------------
function IsStringNumeric(value) {
    return (0,guard/* IsString */.IP)(value) && !isNaN(value) && !isNaN(parseFloat(value));
}
function IsValueToString(value) {
    return (0,guard/* IsBigInt */.cQ)(value) || (0,guard/* IsBoolean */.Zx)(value) || (0,guard/* IsNumber */.Mx)(value);
}
function IsValueTrue(value) {
    return value === true || ((0,guard/* IsNumber */.Mx)(value) && value === 1) || ((0,guard/* IsBigInt */.cQ)(value) && value === BigInt('1')) || ((0,guard/* IsString */.IP)(value) && (value.toLowerCase() === 'true' || value === '1'));
}
function IsValueFalse(value) {
    return value === false || ((0,guard/* IsNumber */.Mx)(value) && (value === 0 || Object.is(value, -0))) || ((0,guard/* IsBigInt */.cQ)(value) && value === BigInt('0')) || ((0,guard/* IsString */.IP)(value) && (value.toLowerCase() === 'false' || value === '0' || value === '-0'));
}
function IsTimeStringWithTimeZone(value) {
    return (0,guard/* IsString */.IP)(value) && /^(?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i.test(value);
}
function IsTimeStringWithoutTimeZone(value) {
    return (0,guard/* IsString */.IP)(value) && /^(?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)?$/i.test(value);
}
function IsDateTimeStringWithTimeZone(value) {
    return (0,guard/* IsString */.IP)(value) && /^\d\d\d\d-[0-1]\d-[0-3]\dt(?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i.test(value);
}
function IsDateTimeStringWithoutTimeZone(value) {
    return (0,guard/* IsString */.IP)(value) && /^\d\d\d\d-[0-1]\d-[0-3]\dt(?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)?$/i.test(value);
}
function IsDateString(value) {
    return (0,guard/* IsString */.IP)(value) && /^\d\d\d\d-[0-1]\d-[0-3]\d$/i.test(value);
}
// ------------------------------------------------------------------
// Convert
// ------------------------------------------------------------------
function TryConvertLiteralString(value, target) {
    const conversion = TryConvertString(value);
    return conversion === target ? conversion : value;
}
function TryConvertLiteralNumber(value, target) {
    const conversion = TryConvertNumber(value);
    return conversion === target ? conversion : value;
}
function TryConvertLiteralBoolean(value, target) {
    const conversion = TryConvertBoolean(value);
    return conversion === target ? conversion : value;
}
// prettier-ignore
function TryConvertLiteral(schema, value) {
    return ((0,guard/* IsString */.IP)(schema.const) ? TryConvertLiteralString(value, schema.const) :
        (0,guard/* IsNumber */.Mx)(schema.const) ? TryConvertLiteralNumber(value, schema.const) :
            (0,guard/* IsBoolean */.Zx)(schema.const) ? TryConvertLiteralBoolean(value, schema.const) :
                value);
}
function TryConvertBoolean(value) {
    return IsValueTrue(value) ? true : IsValueFalse(value) ? false : value;
}
function TryConvertBigInt(value) {
    const truncateInteger = (value) => value.split('.')[0];
    return IsStringNumeric(value) ? BigInt(truncateInteger(value)) : (0,guard/* IsNumber */.Mx)(value) ? BigInt(Math.trunc(value)) : IsValueFalse(value) ? BigInt(0) : IsValueTrue(value) ? BigInt(1) : value;
}
function TryConvertString(value) {
    return (0,guard/* IsSymbol */.nH)(value) && value.description !== undefined ? value.description.toString() : IsValueToString(value) ? value.toString() : value;
}
function TryConvertNumber(value) {
    return IsStringNumeric(value) ? parseFloat(value) : IsValueTrue(value) ? 1 : IsValueFalse(value) ? 0 : value;
}
function TryConvertInteger(value) {
    return IsStringNumeric(value) ? parseInt(value) : (0,guard/* IsNumber */.Mx)(value) ? Math.trunc(value) : IsValueTrue(value) ? 1 : IsValueFalse(value) ? 0 : value;
}
function TryConvertNull(value) {
    return (0,guard/* IsString */.IP)(value) && value.toLowerCase() === 'null' ? null : value;
}
function TryConvertUndefined(value) {
    return (0,guard/* IsString */.IP)(value) && value === 'undefined' ? undefined : value;
}
// ------------------------------------------------------------------
// note: this function may return an invalid dates for the regex
// tests above. Invalid dates will however be checked during the
// casting function and will return a epoch date if invalid.
// Consider better string parsing for the iso dates in future
// revisions.
// ------------------------------------------------------------------
// prettier-ignore
function TryConvertDate(value) {
    return ((0,guard/* IsDate */.XF)(value) ? value :
        (0,guard/* IsNumber */.Mx)(value) ? new Date(value) :
            IsValueTrue(value) ? new Date(1) :
                IsValueFalse(value) ? new Date(0) :
                    IsStringNumeric(value) ? new Date(parseInt(value)) :
                        IsTimeStringWithoutTimeZone(value) ? new Date(`1970-01-01T${value}.000Z`) :
                            IsTimeStringWithTimeZone(value) ? new Date(`1970-01-01T${value}`) :
                                IsDateTimeStringWithoutTimeZone(value) ? new Date(`${value}.000Z`) :
                                    IsDateTimeStringWithTimeZone(value) ? new Date(value) :
                                        IsDateString(value) ? new Date(`${value}T00:00:00.000Z`) :
                                            value);
}
// ------------------------------------------------------------------
// Default
// ------------------------------------------------------------------
function convert_Default(value) {
    return value;
}
// ------------------------------------------------------------------
// Convert
// ------------------------------------------------------------------
function convert_FromArray(schema, references, value) {
    const elements = (0,guard/* IsArray */.QS)(value) ? value : [value];
    return elements.map((element) => convert_Visit(schema.items, references, element));
}
function convert_FromBigInt(schema, references, value) {
    return TryConvertBigInt(value);
}
function convert_FromBoolean(schema, references, value) {
    return TryConvertBoolean(value);
}
function convert_FromDate(schema, references, value) {
    return TryConvertDate(value);
}
function convert_FromImport(schema, references, value) {
    const definitions = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    return convert_Visit(target, [...references, ...definitions], value);
}
function convert_FromInteger(schema, references, value) {
    return TryConvertInteger(value);
}
function convert_FromIntersect(schema, references, value) {
    return schema.allOf.reduce((value, schema) => convert_Visit(schema, references, value), value);
}
function convert_FromLiteral(schema, references, value) {
    return TryConvertLiteral(schema, value);
}
function convert_FromNull(schema, references, value) {
    return TryConvertNull(value);
}
function convert_FromNumber(schema, references, value) {
    return TryConvertNumber(value);
}
// prettier-ignore
function convert_FromObject(schema, references, value) {
    if (!(0,guard/* IsObject */.av)(value) || (0,guard/* IsArray */.QS)(value))
        return value;
    for (const propertyKey of Object.getOwnPropertyNames(schema.properties)) {
        if (!(0,guard/* HasPropertyKey */.LT)(value, propertyKey))
            continue;
        value[propertyKey] = convert_Visit(schema.properties[propertyKey], references, value[propertyKey]);
    }
    return value;
}
function convert_FromRecord(schema, references, value) {
    const isConvertable = (0,guard/* IsObject */.av)(value) && !(0,guard/* IsArray */.QS)(value);
    if (!isConvertable)
        return value;
    const propertyKey = Object.getOwnPropertyNames(schema.patternProperties)[0];
    const property = schema.patternProperties[propertyKey];
    for (const [propKey, propValue] of Object.entries(value)) {
        value[propKey] = convert_Visit(property, references, propValue);
    }
    return value;
}
function convert_FromRef(schema, references, value) {
    return convert_Visit(Deref(schema, references), references, value);
}
function convert_FromString(schema, references, value) {
    return TryConvertString(value);
}
function convert_FromSymbol(schema, references, value) {
    return (0,guard/* IsString */.IP)(value) || (0,guard/* IsNumber */.Mx)(value) ? Symbol(value) : value;
}
function convert_FromThis(schema, references, value) {
    return convert_Visit(Deref(schema, references), references, value);
}
// prettier-ignore
function convert_FromTuple(schema, references, value) {
    const isConvertable = (0,guard/* IsArray */.QS)(value) && !(0,guard/* IsUndefined */.R1)(schema.items);
    if (!isConvertable)
        return value;
    return value.map((value, index) => {
        return (index < schema.items.length)
            ? convert_Visit(schema.items[index], references, value)
            : value;
    });
}
function convert_FromUndefined(schema, references, value) {
    return TryConvertUndefined(value);
}
function convert_FromUnion(schema, references, value) {
    // Check if original value already matches one of the union variants
    for (const subschema of schema.anyOf) {
        if (Check(subschema, references, value)) {
            return value;
        }
    }
    // Attempt conversion for each variant
    for (const subschema of schema.anyOf) {
        const converted = convert_Visit(subschema, references, Clone(value));
        if (!Check(subschema, references, converted))
            continue;
        return converted;
    }
    return value;
}
function convert_Visit(schema, references, value) {
    const references_ = Pushref(schema, references);
    const schema_ = schema;
    switch (schema[symbols/* Kind */.b8]) {
        case 'Array':
            return convert_FromArray(schema_, references_, value);
        case 'BigInt':
            return convert_FromBigInt(schema_, references_, value);
        case 'Boolean':
            return convert_FromBoolean(schema_, references_, value);
        case 'Date':
            return convert_FromDate(schema_, references_, value);
        case 'Import':
            return convert_FromImport(schema_, references_, value);
        case 'Integer':
            return convert_FromInteger(schema_, references_, value);
        case 'Intersect':
            return convert_FromIntersect(schema_, references_, value);
        case 'Literal':
            return convert_FromLiteral(schema_, references_, value);
        case 'Null':
            return convert_FromNull(schema_, references_, value);
        case 'Number':
            return convert_FromNumber(schema_, references_, value);
        case 'Object':
            return convert_FromObject(schema_, references_, value);
        case 'Record':
            return convert_FromRecord(schema_, references_, value);
        case 'Ref':
            return convert_FromRef(schema_, references_, value);
        case 'String':
            return convert_FromString(schema_, references_, value);
        case 'Symbol':
            return convert_FromSymbol(schema_, references_, value);
        case 'This':
            return convert_FromThis(schema_, references_, value);
        case 'Tuple':
            return convert_FromTuple(schema_, references_, value);
        case 'Undefined':
            return convert_FromUndefined(schema_, references_, value);
        case 'Union':
            return convert_FromUnion(schema_, references_, value);
        default:
            return convert_Default(value);
    }
}
/** `[Mutable]` Converts any type mismatched values to their target type if a reasonable conversion is possible. */
// prettier-ignore
function Convert(...args) {
    return args.length === 3 ? convert_Visit(args[0], args[1], args[2]) : convert_Visit(args[0], [], args[1]);
}

// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/indexed/indexed.mjs + 2 modules
var indexed = __webpack_require__(5272);
;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/type/keyof/keyof-property-entries.mjs


/**
 * `[Utility]` Resolves an array of keys and schemas from the given schema. This method is faster
 * than obtaining the keys and resolving each individually via indexing. This method was written
 * accellerate Intersect and Union encoding.
 */
function KeyOfPropertyEntries(schema) {
    const keys = (0,keyof_property_keys/* KeyOfPropertyKeys */.g)(schema);
    const schemas = (0,indexed/* IndexFromPropertyKeys */.u$)(schema, keys);
    return keys.map((_, index) => [keys[index], schemas[index]]);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/transform/decode.mjs






// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// KindGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
// thrown externally
// prettier-ignore
class TransformDecodeCheckError extends error/* TypeBoxError */.i {
    constructor(schema, value, error) {
        super(`Unable to decode value as it does not match the expected schema`);
        this.schema = schema;
        this.value = value;
        this.error = error;
    }
}
// prettier-ignore
class TransformDecodeError extends error/* TypeBoxError */.i {
    constructor(schema, path, value, error) {
        super(error instanceof Error ? error.message : 'Unknown error');
        this.schema = schema;
        this.path = path;
        this.value = value;
        this.error = error;
    }
}
// ------------------------------------------------------------------
// Decode
// ------------------------------------------------------------------
// prettier-ignore
function decode_Default(schema, path, value) {
    try {
        return (0,kind/* IsTransform */.n_)(schema) ? schema[symbols/* TransformKind */.H7].Decode(value) : value;
    }
    catch (error) {
        throw new TransformDecodeError(schema, path, value, error);
    }
}
// prettier-ignore
function decode_FromArray(schema, references, path, value) {
    return ((0,guard/* IsArray */.QS)(value))
        ? decode_Default(schema, path, value.map((value, index) => decode_Visit(schema.items, references, `${path}/${index}`, value)))
        : decode_Default(schema, path, value);
}
// prettier-ignore
function decode_FromIntersect(schema, references, path, value) {
    if (!(0,guard/* IsObject */.av)(value) || (0,guard/* IsValueType */.u$)(value))
        return decode_Default(schema, path, value);
    const knownEntries = KeyOfPropertyEntries(schema);
    const knownKeys = knownEntries.map(entry => entry[0]);
    const knownProperties = { ...value };
    for (const [knownKey, knownSchema] of knownEntries)
        if (knownKey in knownProperties) {
            knownProperties[knownKey] = decode_Visit(knownSchema, references, `${path}/${knownKey}`, knownProperties[knownKey]);
        }
    if (!(0,kind/* IsTransform */.n_)(schema.unevaluatedProperties)) {
        return decode_Default(schema, path, knownProperties);
    }
    const unknownKeys = Object.getOwnPropertyNames(knownProperties);
    const unevaluatedProperties = schema.unevaluatedProperties;
    const unknownProperties = { ...knownProperties };
    for (const key of unknownKeys)
        if (!knownKeys.includes(key)) {
            unknownProperties[key] = decode_Default(unevaluatedProperties, `${path}/${key}`, unknownProperties[key]);
        }
    return decode_Default(schema, path, unknownProperties);
}
// prettier-ignore
function decode_FromImport(schema, references, path, value) {
    const additional = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    const result = decode_Visit(target, [...references, ...additional], path, value);
    return decode_Default(schema, path, result);
}
function decode_FromNot(schema, references, path, value) {
    return decode_Default(schema, path, decode_Visit(schema.not, references, path, value));
}
// prettier-ignore
function decode_FromObject(schema, references, path, value) {
    if (!(0,guard/* IsObject */.av)(value))
        return decode_Default(schema, path, value);
    const knownKeys = (0,keyof_property_keys/* KeyOfPropertyKeys */.g)(schema);
    const knownProperties = { ...value };
    for (const key of knownKeys) {
        if (!(0,guard/* HasPropertyKey */.LT)(knownProperties, key))
            continue;
        // if the property value is undefined, but the target is not, nor does it satisfy exact optional 
        // property policy, then we need to continue. This is a special case for optional property handling 
        // where a transforms wrapped in a optional modifiers should not run.
        if ((0,guard/* IsUndefined */.R1)(knownProperties[key]) && (!(0,kind/* IsUndefined */.R1)(schema.properties[key]) ||
            policy/* TypeSystemPolicy */.Q.IsExactOptionalProperty(knownProperties, key)))
            continue;
        // decode property
        knownProperties[key] = decode_Visit(schema.properties[key], references, `${path}/${key}`, knownProperties[key]);
    }
    if (!(0,kind/* IsSchema */.Yi)(schema.additionalProperties)) {
        return decode_Default(schema, path, knownProperties);
    }
    const unknownKeys = Object.getOwnPropertyNames(knownProperties);
    const additionalProperties = schema.additionalProperties;
    const unknownProperties = { ...knownProperties };
    for (const key of unknownKeys)
        if (!knownKeys.includes(key)) {
            unknownProperties[key] = decode_Default(additionalProperties, `${path}/${key}`, unknownProperties[key]);
        }
    return decode_Default(schema, path, unknownProperties);
}
// prettier-ignore
function decode_FromRecord(schema, references, path, value) {
    if (!(0,guard/* IsObject */.av)(value))
        return decode_Default(schema, path, value);
    const pattern = Object.getOwnPropertyNames(schema.patternProperties)[0];
    const knownKeys = new RegExp(pattern);
    const knownProperties = { ...value };
    for (const key of Object.getOwnPropertyNames(value))
        if (knownKeys.test(key)) {
            knownProperties[key] = decode_Visit(schema.patternProperties[pattern], references, `${path}/${key}`, knownProperties[key]);
        }
    if (!(0,kind/* IsSchema */.Yi)(schema.additionalProperties)) {
        return decode_Default(schema, path, knownProperties);
    }
    const unknownKeys = Object.getOwnPropertyNames(knownProperties);
    const additionalProperties = schema.additionalProperties;
    const unknownProperties = { ...knownProperties };
    for (const key of unknownKeys)
        if (!knownKeys.test(key)) {
            unknownProperties[key] = decode_Default(additionalProperties, `${path}/${key}`, unknownProperties[key]);
        }
    return decode_Default(schema, path, unknownProperties);
}
// prettier-ignore
function decode_FromRef(schema, references, path, value) {
    const target = Deref(schema, references);
    return decode_Default(schema, path, decode_Visit(target, references, path, value));
}
// prettier-ignore
function decode_FromThis(schema, references, path, value) {
    const target = Deref(schema, references);
    return decode_Default(schema, path, decode_Visit(target, references, path, value));
}
// prettier-ignore
function decode_FromTuple(schema, references, path, value) {
    return ((0,guard/* IsArray */.QS)(value) && (0,guard/* IsArray */.QS)(schema.items))
        ? decode_Default(schema, path, schema.items.map((schema, index) => decode_Visit(schema, references, `${path}/${index}`, value[index])))
        : decode_Default(schema, path, value);
}
// prettier-ignore
function decode_FromUnion(schema, references, path, value) {
    for (const subschema of schema.anyOf) {
        if (!Check(subschema, references, value))
            continue;
        // note: ensure interior is decoded first
        const decoded = decode_Visit(subschema, references, path, value);
        return decode_Default(schema, path, decoded);
    }
    return decode_Default(schema, path, value);
}
// prettier-ignore
function decode_Visit(schema, references, path, value) {
    const references_ = Pushref(schema, references);
    const schema_ = schema;
    switch (schema[symbols/* Kind */.b8]) {
        case 'Array':
            return decode_FromArray(schema_, references_, path, value);
        case 'Import':
            return decode_FromImport(schema_, references_, path, value);
        case 'Intersect':
            return decode_FromIntersect(schema_, references_, path, value);
        case 'Not':
            return decode_FromNot(schema_, references_, path, value);
        case 'Object':
            return decode_FromObject(schema_, references_, path, value);
        case 'Record':
            return decode_FromRecord(schema_, references_, path, value);
        case 'Ref':
            return decode_FromRef(schema_, references_, path, value);
        case 'Symbol':
            return decode_Default(schema_, path, value);
        case 'This':
            return decode_FromThis(schema_, references_, path, value);
        case 'Tuple':
            return decode_FromTuple(schema_, references_, path, value);
        case 'Union':
            return decode_FromUnion(schema_, references_, path, value);
        default:
            return decode_Default(schema_, path, value);
    }
}
/**
 * `[Internal]` Decodes the value and returns the result. This function requires that
 * the caller `Check` the value before use. Passing unchecked values may result in
 * undefined behavior. Refer to the `Value.Decode()` for implementation details.
 */
function TransformDecode(schema, references, value) {
    return decode_Visit(schema, references, '', value);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/transform/has.mjs


// ------------------------------------------------------------------
// KindGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------

// prettier-ignore
function has_FromArray(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(schema.items, references);
}
// prettier-ignore
function has_FromAsyncIterator(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(schema.items, references);
}
// prettier-ignore
function has_FromConstructor(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(schema.returns, references) || schema.parameters.some((schema) => has_Visit(schema, references));
}
// prettier-ignore
function has_FromFunction(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(schema.returns, references) || schema.parameters.some((schema) => has_Visit(schema, references));
}
// prettier-ignore
function has_FromIntersect(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || (0,kind/* IsTransform */.n_)(schema.unevaluatedProperties) || schema.allOf.some((schema) => has_Visit(schema, references));
}
// prettier-ignore
function has_FromImport(schema, references) {
    const additional = globalThis.Object.getOwnPropertyNames(schema.$defs).reduce((result, key) => [...result, schema.$defs[key]], []);
    const target = schema.$defs[schema.$ref];
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(target, [...additional, ...references]);
}
// prettier-ignore
function has_FromIterator(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(schema.items, references);
}
// prettier-ignore
function has_FromNot(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(schema.not, references);
}
// prettier-ignore
function has_FromObject(schema, references) {
    return ((0,kind/* IsTransform */.n_)(schema) ||
        Object.values(schema.properties).some((schema) => has_Visit(schema, references)) ||
        ((0,kind/* IsSchema */.Yi)(schema.additionalProperties) && has_Visit(schema.additionalProperties, references)));
}
// prettier-ignore
function has_FromPromise(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(schema.item, references);
}
// prettier-ignore
function has_FromRecord(schema, references) {
    const pattern = Object.getOwnPropertyNames(schema.patternProperties)[0];
    const property = schema.patternProperties[pattern];
    return (0,kind/* IsTransform */.n_)(schema) || has_Visit(property, references) || ((0,kind/* IsSchema */.Yi)(schema.additionalProperties) && (0,kind/* IsTransform */.n_)(schema.additionalProperties));
}
// prettier-ignore
function has_FromRef(schema, references) {
    if ((0,kind/* IsTransform */.n_)(schema))
        return true;
    return has_Visit(Deref(schema, references), references);
}
// prettier-ignore
function has_FromThis(schema, references) {
    if ((0,kind/* IsTransform */.n_)(schema))
        return true;
    return has_Visit(Deref(schema, references), references);
}
// prettier-ignore
function has_FromTuple(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || (!(0,guard/* IsUndefined */.R1)(schema.items) && schema.items.some((schema) => has_Visit(schema, references)));
}
// prettier-ignore
function has_FromUnion(schema, references) {
    return (0,kind/* IsTransform */.n_)(schema) || schema.anyOf.some((schema) => has_Visit(schema, references));
}
// prettier-ignore
function has_Visit(schema, references) {
    const references_ = Pushref(schema, references);
    const schema_ = schema;
    if (schema.$id && visited.has(schema.$id))
        return false;
    if (schema.$id)
        visited.add(schema.$id);
    switch (schema[symbols/* Kind */.b8]) {
        case 'Array':
            return has_FromArray(schema_, references_);
        case 'AsyncIterator':
            return has_FromAsyncIterator(schema_, references_);
        case 'Constructor':
            return has_FromConstructor(schema_, references_);
        case 'Function':
            return has_FromFunction(schema_, references_);
        case 'Import':
            return has_FromImport(schema_, references_);
        case 'Intersect':
            return has_FromIntersect(schema_, references_);
        case 'Iterator':
            return has_FromIterator(schema_, references_);
        case 'Not':
            return has_FromNot(schema_, references_);
        case 'Object':
            return has_FromObject(schema_, references_);
        case 'Promise':
            return has_FromPromise(schema_, references_);
        case 'Record':
            return has_FromRecord(schema_, references_);
        case 'Ref':
            return has_FromRef(schema_, references_);
        case 'This':
            return has_FromThis(schema_, references_);
        case 'Tuple':
            return has_FromTuple(schema_, references_);
        case 'Union':
            return has_FromUnion(schema_, references_);
        default:
            return (0,kind/* IsTransform */.n_)(schema);
    }
}
const visited = new Set();
/** Returns true if this schema contains a transform codec */
function HasTransform(schema, references) {
    visited.clear();
    return has_Visit(schema, references);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/decode/decode.mjs



/** Decodes a value or throws if error */
function Decode(...args) {
    const [schema, references, value] = args.length === 3 ? [args[0], args[1], args[2]] : [args[0], [], args[1]];
    if (!Check(schema, references, value))
        throw new TransformDecodeCheckError(schema, value, Errors(schema, references, value).First());
    return HasTransform(schema, references) ? TransformDecode(schema, references, value) : value;
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/default/default.mjs




// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// TypeGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// ValueOrDefault
// ------------------------------------------------------------------
function ValueOrDefault(schema, value) {
    const defaultValue = (0,guard/* HasPropertyKey */.LT)(schema, 'default') ? schema.default : undefined;
    const clone = (0,guard/* IsFunction */.hg)(defaultValue) ? defaultValue() : Clone(defaultValue);
    return (0,guard/* IsUndefined */.R1)(value) ? clone : (0,guard/* IsObject */.av)(value) && (0,guard/* IsObject */.av)(clone) ? Object.assign(clone, value) : value;
}
// ------------------------------------------------------------------
// HasDefaultProperty
// ------------------------------------------------------------------
function HasDefaultProperty(schema) {
    return (0,kind/* IsKind */.nY)(schema) && 'default' in schema;
}
// ------------------------------------------------------------------
// Types
// ------------------------------------------------------------------
function default_FromArray(schema, references, value) {
    // if the value is an array, we attempt to initialize it's elements
    if ((0,guard/* IsArray */.QS)(value)) {
        for (let i = 0; i < value.length; i++) {
            value[i] = default_Visit(schema.items, references, value[i]);
        }
        return value;
    }
    // ... otherwise use default initialization
    const defaulted = ValueOrDefault(schema, value);
    if (!(0,guard/* IsArray */.QS)(defaulted))
        return defaulted;
    for (let i = 0; i < defaulted.length; i++) {
        defaulted[i] = default_Visit(schema.items, references, defaulted[i]);
    }
    return defaulted;
}
function default_FromDate(schema, references, value) {
    // special case intercept for dates
    return (0,guard/* IsDate */.XF)(value) ? value : ValueOrDefault(schema, value);
}
function default_FromImport(schema, references, value) {
    const definitions = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    return default_Visit(target, [...references, ...definitions], value);
}
function default_FromIntersect(schema, references, value) {
    const defaulted = ValueOrDefault(schema, value);
    return schema.allOf.reduce((acc, schema) => {
        const next = default_Visit(schema, references, defaulted);
        return (0,guard/* IsObject */.av)(next) ? { ...acc, ...next } : next;
    }, {});
}
function default_FromObject(schema, references, value) {
    const defaulted = ValueOrDefault(schema, value);
    // return defaulted
    if (!(0,guard/* IsObject */.av)(defaulted))
        return defaulted;
    const knownPropertyKeys = Object.getOwnPropertyNames(schema.properties);
    // properties
    for (const key of knownPropertyKeys) {
        // note: we need to traverse into the object and test if the return value
        // yielded a non undefined result. Here we interpret an undefined result as
        // a non assignable property and continue.
        const propertyValue = default_Visit(schema.properties[key], references, defaulted[key]);
        if ((0,guard/* IsUndefined */.R1)(propertyValue))
            continue;
        defaulted[key] = default_Visit(schema.properties[key], references, defaulted[key]);
    }
    // return if not additional properties
    if (!HasDefaultProperty(schema.additionalProperties))
        return defaulted;
    // additional properties
    for (const key of Object.getOwnPropertyNames(defaulted)) {
        if (knownPropertyKeys.includes(key))
            continue;
        defaulted[key] = default_Visit(schema.additionalProperties, references, defaulted[key]);
    }
    return defaulted;
}
function default_FromRecord(schema, references, value) {
    const defaulted = ValueOrDefault(schema, value);
    if (!(0,guard/* IsObject */.av)(defaulted))
        return defaulted;
    const additionalPropertiesSchema = schema.additionalProperties;
    const [propertyKeyPattern, propertySchema] = Object.entries(schema.patternProperties)[0];
    const knownPropertyKey = new RegExp(propertyKeyPattern);
    // properties
    for (const key of Object.getOwnPropertyNames(defaulted)) {
        if (!(knownPropertyKey.test(key) && HasDefaultProperty(propertySchema)))
            continue;
        defaulted[key] = default_Visit(propertySchema, references, defaulted[key]);
    }
    // return if not additional properties
    if (!HasDefaultProperty(additionalPropertiesSchema))
        return defaulted;
    // additional properties
    for (const key of Object.getOwnPropertyNames(defaulted)) {
        if (knownPropertyKey.test(key))
            continue;
        defaulted[key] = default_Visit(additionalPropertiesSchema, references, defaulted[key]);
    }
    return defaulted;
}
function default_FromRef(schema, references, value) {
    return default_Visit(Deref(schema, references), references, ValueOrDefault(schema, value));
}
function default_FromThis(schema, references, value) {
    return default_Visit(Deref(schema, references), references, value);
}
function default_FromTuple(schema, references, value) {
    const defaulted = ValueOrDefault(schema, value);
    if (!(0,guard/* IsArray */.QS)(defaulted) || (0,guard/* IsUndefined */.R1)(schema.items))
        return defaulted;
    const [items, max] = [schema.items, Math.max(schema.items.length, defaulted.length)];
    for (let i = 0; i < max; i++) {
        if (i < items.length)
            defaulted[i] = default_Visit(items[i], references, defaulted[i]);
    }
    return defaulted;
}
function default_FromUnion(schema, references, value) {
    const defaulted = ValueOrDefault(schema, value);
    for (const inner of schema.anyOf) {
        const result = default_Visit(inner, references, Clone(defaulted));
        if (Check(inner, references, result)) {
            return result;
        }
    }
    return defaulted;
}
function default_Visit(schema, references, value) {
    const references_ = Pushref(schema, references);
    const schema_ = schema;
    switch (schema_[symbols/* Kind */.b8]) {
        case 'Array':
            return default_FromArray(schema_, references_, value);
        case 'Date':
            return default_FromDate(schema_, references_, value);
        case 'Import':
            return default_FromImport(schema_, references_, value);
        case 'Intersect':
            return default_FromIntersect(schema_, references_, value);
        case 'Object':
            return default_FromObject(schema_, references_, value);
        case 'Record':
            return default_FromRecord(schema_, references_, value);
        case 'Ref':
            return default_FromRef(schema_, references_, value);
        case 'This':
            return default_FromThis(schema_, references_, value);
        case 'Tuple':
            return default_FromTuple(schema_, references_, value);
        case 'Union':
            return default_FromUnion(schema_, references_, value);
        default:
            return ValueOrDefault(schema_, value);
    }
}
/** `[Mutable]` Generates missing properties on a value using default schema annotations if available. This function does not check the value and returns an unknown type. You should Check the result before use. Default is a mutable operation. To avoid mutation, Clone the value first. */
function default_Default(...args) {
    return args.length === 3 ? default_Visit(args[0], args[1], args[2]) : default_Visit(args[0], [], args[1]);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/pointer/pointer.mjs

// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
class ValuePointerRootSetError extends error/* TypeBoxError */.i {
    constructor(value, path, update) {
        super('Cannot set root value');
        this.value = value;
        this.path = path;
        this.update = update;
    }
}
class ValuePointerRootDeleteError extends error/* TypeBoxError */.i {
    constructor(value, path) {
        super('Cannot delete root value');
        this.value = value;
        this.path = path;
    }
}
// ------------------------------------------------------------------
// ValuePointer
// ------------------------------------------------------------------
/** Provides functionality to update values through RFC6901 string pointers */
// prettier-ignore
function Escape(component) {
    return component.indexOf('~') === -1 ? component : component.replace(/~1/g, '/').replace(/~0/g, '~');
}
/** Formats the given pointer into navigable key components */
// prettier-ignore
function* Format(pointer) {
    if (pointer === '')
        return;
    let [start, end] = [0, 0];
    for (let i = 0; i < pointer.length; i++) {
        const char = pointer.charAt(i);
        if (char === '/') {
            if (i === 0) {
                start = i + 1;
            }
            else {
                end = i;
                yield Escape(pointer.slice(start, end));
                start = i + 1;
            }
        }
        else {
            end = i;
        }
    }
    yield Escape(pointer.slice(start));
}
/** Sets the value at the given pointer. If the value at the pointer does not exist it is created */
// prettier-ignore
function pointer_Set(value, pointer, update) {
    if (pointer === '')
        throw new ValuePointerRootSetError(value, pointer, update);
    let [owner, next, key] = [null, value, ''];
    for (const component of Format(pointer)) {
        if (next[component] === undefined)
            next[component] = {};
        owner = next;
        next = next[component];
        key = component;
    }
    owner[key] = update;
}
/** Deletes a value at the given pointer */
// prettier-ignore
function pointer_Delete(value, pointer) {
    if (pointer === '')
        throw new ValuePointerRootDeleteError(value, pointer);
    let [owner, next, key] = [null, value, ''];
    for (const component of Format(pointer)) {
        if (next[component] === undefined || next[component] === null)
            return;
        owner = next;
        next = next[component];
        key = component;
    }
    if (Array.isArray(owner)) {
        const index = parseInt(key);
        owner.splice(index, 1);
    }
    else {
        delete owner[key];
    }
}
/** Returns true if a value exists at the given pointer */
// prettier-ignore
function pointer_Has(value, pointer) {
    if (pointer === '')
        return true;
    let [owner, next, key] = [null, value, ''];
    for (const component of Format(pointer)) {
        if (next[component] === undefined)
            return false;
        owner = next;
        next = next[component];
        key = component;
    }
    return Object.getOwnPropertyNames(owner).includes(key);
}
/** Gets the value at the given pointer */
// prettier-ignore
function pointer_Get(value, pointer) {
    if (pointer === '')
        return value;
    let current = value;
    for (const component of Format(pointer)) {
        if (current[component] === undefined)
            return undefined;
        current = current[component];
    }
    return current;
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/equal/equal.mjs

// ------------------------------------------------------------------
// Equality Checks
// ------------------------------------------------------------------
function equal_ObjectType(left, right) {
    if (!(0,guard/* IsObject */.av)(right))
        return false;
    const leftKeys = [...Object.keys(left), ...Object.getOwnPropertySymbols(left)];
    const rightKeys = [...Object.keys(right), ...Object.getOwnPropertySymbols(right)];
    if (leftKeys.length !== rightKeys.length)
        return false;
    return leftKeys.every((key) => Equal(left[key], right[key]));
}
function equal_DateType(left, right) {
    return (0,guard/* IsDate */.XF)(right) && left.getTime() === right.getTime();
}
function equal_ArrayType(left, right) {
    if (!(0,guard/* IsArray */.QS)(right) || left.length !== right.length)
        return false;
    return left.every((value, index) => Equal(value, right[index]));
}
function TypedArrayType(left, right) {
    if (!(0,guard/* IsTypedArray */.Qb)(right) || left.length !== right.length || Object.getPrototypeOf(left).constructor.name !== Object.getPrototypeOf(right).constructor.name)
        return false;
    return left.every((value, index) => Equal(value, right[index]));
}
function ValueType(left, right) {
    return left === right;
}
// ------------------------------------------------------------------
// Equal
// ------------------------------------------------------------------
/** Returns true if the left value deep-equals the right */
function Equal(left, right) {
    if ((0,guard/* IsDate */.XF)(left))
        return equal_DateType(left, right);
    if ((0,guard/* IsTypedArray */.Qb)(left))
        return TypedArrayType(left, right);
    if ((0,guard/* IsArray */.QS)(left))
        return equal_ArrayType(left, right);
    if ((0,guard/* IsObject */.av)(left))
        return equal_ObjectType(left, right);
    if ((0,guard/* IsValueType */.u$)(left))
        return ValueType(left, right);
    throw new Error('ValueEquals: Unable to compare value');
}

// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/literal/literal.mjs
var literal = __webpack_require__(8538);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/object/object.mjs
var object = __webpack_require__(6198);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/string/string.mjs
var string = __webpack_require__(1514);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/unknown/unknown.mjs
var unknown = __webpack_require__(8882);
// EXTERNAL MODULE: ./node_modules/@sinclair/typebox/build/esm/type/union/union.mjs
var union = __webpack_require__(2314);
;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/delta/delta.mjs










const Insert = (0,object/* Object */.w)({
    type: (0,literal/* Literal */.u)('insert'),
    path: (0,string/* String */.Q)(),
    value: (0,unknown/* Unknown */.$)(),
});
const Update = (0,object/* Object */.w)({
    type: (0,literal/* Literal */.u)('update'),
    path: (0,string/* String */.Q)(),
    value: (0,unknown/* Unknown */.$)(),
});
const delta_Delete = (0,object/* Object */.w)({
    type: (0,literal/* Literal */.u)('delete'),
    path: (0,string/* String */.Q)(),
});
const Edit = (0,union/* Union */.g)([Insert, Update, delta_Delete]);
// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
class ValueDiffError extends error/* TypeBoxError */.i {
    constructor(value, message) {
        super(message);
        this.value = value;
    }
}
// ------------------------------------------------------------------
// Command Factory
// ------------------------------------------------------------------
function CreateUpdate(path, value) {
    return { type: 'update', path, value };
}
function CreateInsert(path, value) {
    return { type: 'insert', path, value };
}
function CreateDelete(path) {
    return { type: 'delete', path };
}
// ------------------------------------------------------------------
// AssertDiffable
// ------------------------------------------------------------------
function AssertDiffable(value) {
    if (globalThis.Object.getOwnPropertySymbols(value).length > 0)
        throw new ValueDiffError(value, 'Cannot diff objects with symbols');
}
// ------------------------------------------------------------------
// Diffing Generators
// ------------------------------------------------------------------
function* delta_ObjectType(path, current, next) {
    AssertDiffable(current);
    AssertDiffable(next);
    if (!(0,guard/* IsStandardObject */.D4)(next))
        return yield CreateUpdate(path, next);
    const currentKeys = globalThis.Object.getOwnPropertyNames(current);
    const nextKeys = globalThis.Object.getOwnPropertyNames(next);
    // ----------------------------------------------------------------
    // inserts
    // ----------------------------------------------------------------
    for (const key of nextKeys) {
        if ((0,guard/* HasPropertyKey */.LT)(current, key))
            continue;
        yield CreateInsert(`${path}/${key}`, next[key]);
    }
    // ----------------------------------------------------------------
    // updates
    // ----------------------------------------------------------------
    for (const key of currentKeys) {
        if (!(0,guard/* HasPropertyKey */.LT)(next, key))
            continue;
        if (Equal(current, next))
            continue;
        yield* delta_Visit(`${path}/${key}`, current[key], next[key]);
    }
    // ----------------------------------------------------------------
    // deletes
    // ----------------------------------------------------------------
    for (const key of currentKeys) {
        if ((0,guard/* HasPropertyKey */.LT)(next, key))
            continue;
        yield CreateDelete(`${path}/${key}`);
    }
}
function* delta_ArrayType(path, current, next) {
    if (!(0,guard/* IsArray */.QS)(next))
        return yield CreateUpdate(path, next);
    for (let i = 0; i < Math.min(current.length, next.length); i++) {
        yield* delta_Visit(`${path}/${i}`, current[i], next[i]);
    }
    for (let i = 0; i < next.length; i++) {
        if (i < current.length)
            continue;
        yield CreateInsert(`${path}/${i}`, next[i]);
    }
    for (let i = current.length - 1; i >= 0; i--) {
        if (i < next.length)
            continue;
        yield CreateDelete(`${path}/${i}`);
    }
}
function* delta_TypedArrayType(path, current, next) {
    if (!(0,guard/* IsTypedArray */.Qb)(next) || current.length !== next.length || globalThis.Object.getPrototypeOf(current).constructor.name !== globalThis.Object.getPrototypeOf(next).constructor.name)
        return yield CreateUpdate(path, next);
    for (let i = 0; i < Math.min(current.length, next.length); i++) {
        yield* delta_Visit(`${path}/${i}`, current[i], next[i]);
    }
}
function* delta_ValueType(path, current, next) {
    if (current === next)
        return;
    yield CreateUpdate(path, next);
}
function* delta_Visit(path, current, next) {
    if ((0,guard/* IsStandardObject */.D4)(current))
        return yield* delta_ObjectType(path, current, next);
    if ((0,guard/* IsArray */.QS)(current))
        return yield* delta_ArrayType(path, current, next);
    if ((0,guard/* IsTypedArray */.Qb)(current))
        return yield* delta_TypedArrayType(path, current, next);
    if ((0,guard/* IsValueType */.u$)(current))
        return yield* delta_ValueType(path, current, next);
    throw new ValueDiffError(current, 'Unable to diff value');
}
// ------------------------------------------------------------------
// Diff
// ------------------------------------------------------------------
function Diff(current, next) {
    return [...delta_Visit('', current, next)];
}
// ------------------------------------------------------------------
// Patch
// ------------------------------------------------------------------
function IsRootUpdate(edits) {
    return edits.length > 0 && edits[0].path === '' && edits[0].type === 'update';
}
function IsIdentity(edits) {
    return edits.length === 0;
}
function Patch(current, edits) {
    if (IsRootUpdate(edits)) {
        return Clone(edits[0].value);
    }
    if (IsIdentity(edits)) {
        return Clone(current);
    }
    const clone = Clone(current);
    for (const edit of edits) {
        switch (edit.type) {
            case 'insert': {
                pointer_Set(clone, edit.path, edit.value);
                break;
            }
            case 'update': {
                pointer_Set(clone, edit.path, edit.value);
                break;
            }
            case 'delete': {
                pointer_Delete(clone, edit.path);
                break;
            }
        }
    }
    return clone;
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/transform/encode.mjs






// ------------------------------------------------------------------
// ValueGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// KindGuard
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
// prettier-ignore
class TransformEncodeCheckError extends error/* TypeBoxError */.i {
    constructor(schema, value, error) {
        super(`The encoded value does not match the expected schema`);
        this.schema = schema;
        this.value = value;
        this.error = error;
    }
}
// prettier-ignore
class TransformEncodeError extends error/* TypeBoxError */.i {
    constructor(schema, path, value, error) {
        super(`${error instanceof Error ? error.message : 'Unknown error'}`);
        this.schema = schema;
        this.path = path;
        this.value = value;
        this.error = error;
    }
}
// ------------------------------------------------------------------
// Encode
// ------------------------------------------------------------------
// prettier-ignore
function encode_Default(schema, path, value) {
    try {
        return (0,kind/* IsTransform */.n_)(schema) ? schema[symbols/* TransformKind */.H7].Encode(value) : value;
    }
    catch (error) {
        throw new TransformEncodeError(schema, path, value, error);
    }
}
// prettier-ignore
function encode_FromArray(schema, references, path, value) {
    const defaulted = encode_Default(schema, path, value);
    return (0,guard/* IsArray */.QS)(defaulted)
        ? defaulted.map((value, index) => encode_Visit(schema.items, references, `${path}/${index}`, value))
        : defaulted;
}
// prettier-ignore
function encode_FromImport(schema, references, path, value) {
    const additional = globalThis.Object.values(schema.$defs);
    const target = schema.$defs[schema.$ref];
    const result = encode_Default(schema, path, value);
    return encode_Visit(target, [...references, ...additional], path, result);
}
// prettier-ignore
function encode_FromIntersect(schema, references, path, value) {
    const defaulted = encode_Default(schema, path, value);
    if (!(0,guard/* IsObject */.av)(value) || (0,guard/* IsValueType */.u$)(value))
        return defaulted;
    const knownEntries = KeyOfPropertyEntries(schema);
    const knownKeys = knownEntries.map(entry => entry[0]);
    const knownProperties = { ...defaulted };
    for (const [knownKey, knownSchema] of knownEntries)
        if (knownKey in knownProperties) {
            knownProperties[knownKey] = encode_Visit(knownSchema, references, `${path}/${knownKey}`, knownProperties[knownKey]);
        }
    if (!(0,kind/* IsTransform */.n_)(schema.unevaluatedProperties)) {
        return knownProperties;
    }
    const unknownKeys = Object.getOwnPropertyNames(knownProperties);
    const unevaluatedProperties = schema.unevaluatedProperties;
    const properties = { ...knownProperties };
    for (const key of unknownKeys)
        if (!knownKeys.includes(key)) {
            properties[key] = encode_Default(unevaluatedProperties, `${path}/${key}`, properties[key]);
        }
    return properties;
}
// prettier-ignore
function encode_FromNot(schema, references, path, value) {
    return encode_Default(schema.not, path, encode_Default(schema, path, value));
}
// prettier-ignore
function encode_FromObject(schema, references, path, value) {
    const defaulted = encode_Default(schema, path, value);
    if (!(0,guard/* IsObject */.av)(defaulted))
        return defaulted;
    const knownKeys = (0,keyof_property_keys/* KeyOfPropertyKeys */.g)(schema);
    const knownProperties = { ...defaulted };
    for (const key of knownKeys) {
        if (!(0,guard/* HasPropertyKey */.LT)(knownProperties, key))
            continue;
        // if the property value is undefined, but the target is not, nor does it satisfy exact optional 
        // property policy, then we need to continue. This is a special case for optional property handling 
        // where a transforms wrapped in a optional modifiers should not run.
        if ((0,guard/* IsUndefined */.R1)(knownProperties[key]) && (!(0,kind/* IsUndefined */.R1)(schema.properties[key]) ||
            policy/* TypeSystemPolicy */.Q.IsExactOptionalProperty(knownProperties, key)))
            continue;
        // encode property
        knownProperties[key] = encode_Visit(schema.properties[key], references, `${path}/${key}`, knownProperties[key]);
    }
    if (!(0,kind/* IsSchema */.Yi)(schema.additionalProperties)) {
        return knownProperties;
    }
    const unknownKeys = Object.getOwnPropertyNames(knownProperties);
    const additionalProperties = schema.additionalProperties;
    const properties = { ...knownProperties };
    for (const key of unknownKeys)
        if (!knownKeys.includes(key)) {
            properties[key] = encode_Default(additionalProperties, `${path}/${key}`, properties[key]);
        }
    return properties;
}
// prettier-ignore
function encode_FromRecord(schema, references, path, value) {
    const defaulted = encode_Default(schema, path, value);
    if (!(0,guard/* IsObject */.av)(value))
        return defaulted;
    const pattern = Object.getOwnPropertyNames(schema.patternProperties)[0];
    const knownKeys = new RegExp(pattern);
    const knownProperties = { ...defaulted };
    for (const key of Object.getOwnPropertyNames(value))
        if (knownKeys.test(key)) {
            knownProperties[key] = encode_Visit(schema.patternProperties[pattern], references, `${path}/${key}`, knownProperties[key]);
        }
    if (!(0,kind/* IsSchema */.Yi)(schema.additionalProperties)) {
        return knownProperties;
    }
    const unknownKeys = Object.getOwnPropertyNames(knownProperties);
    const additionalProperties = schema.additionalProperties;
    const properties = { ...knownProperties };
    for (const key of unknownKeys)
        if (!knownKeys.test(key)) {
            properties[key] = encode_Default(additionalProperties, `${path}/${key}`, properties[key]);
        }
    return properties;
}
// prettier-ignore
function encode_FromRef(schema, references, path, value) {
    const target = Deref(schema, references);
    const resolved = encode_Visit(target, references, path, value);
    return encode_Default(schema, path, resolved);
}
// prettier-ignore
function encode_FromThis(schema, references, path, value) {
    const target = Deref(schema, references);
    const resolved = encode_Visit(target, references, path, value);
    return encode_Default(schema, path, resolved);
}
// prettier-ignore
function encode_FromTuple(schema, references, path, value) {
    const value1 = encode_Default(schema, path, value);
    return (0,guard/* IsArray */.QS)(schema.items) ? schema.items.map((schema, index) => encode_Visit(schema, references, `${path}/${index}`, value1[index])) : [];
}
// prettier-ignore
function encode_FromUnion(schema, references, path, value) {
    // test value against union variants
    for (const subschema of schema.anyOf) {
        if (!Check(subschema, references, value))
            continue;
        const value1 = encode_Visit(subschema, references, path, value);
        return encode_Default(schema, path, value1);
    }
    // test transformed value against union variants
    for (const subschema of schema.anyOf) {
        const value1 = encode_Visit(subschema, references, path, value);
        if (!Check(schema, references, value1))
            continue;
        return encode_Default(schema, path, value1);
    }
    return encode_Default(schema, path, value);
}
// prettier-ignore
function encode_Visit(schema, references, path, value) {
    const references_ = Pushref(schema, references);
    const schema_ = schema;
    switch (schema[symbols/* Kind */.b8]) {
        case 'Array':
            return encode_FromArray(schema_, references_, path, value);
        case 'Import':
            return encode_FromImport(schema_, references_, path, value);
        case 'Intersect':
            return encode_FromIntersect(schema_, references_, path, value);
        case 'Not':
            return encode_FromNot(schema_, references_, path, value);
        case 'Object':
            return encode_FromObject(schema_, references_, path, value);
        case 'Record':
            return encode_FromRecord(schema_, references_, path, value);
        case 'Ref':
            return encode_FromRef(schema_, references_, path, value);
        case 'This':
            return encode_FromThis(schema_, references_, path, value);
        case 'Tuple':
            return encode_FromTuple(schema_, references_, path, value);
        case 'Union':
            return encode_FromUnion(schema_, references_, path, value);
        default:
            return encode_Default(schema_, path, value);
    }
}
/**
 * `[Internal]` Encodes the value and returns the result. This function expects the
 * caller to pass a statically checked value. This function does not check the encoded
 * result, meaning the result should be passed to `Check` before use. Refer to the
 * `Value.Encode()` function for implementation details.
 */
function TransformEncode(schema, references, value) {
    return encode_Visit(schema, references, '', value);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/encode/encode.mjs



/** Encodes a value or throws if error */
function Encode(...args) {
    const [schema, references, value] = args.length === 3 ? [args[0], args[1], args[2]] : [args[0], [], args[1]];
    const encoded = HasTransform(schema, references) ? TransformEncode(schema, references, value) : value;
    if (!Check(schema, references, encoded))
        throw new TransformEncodeCheckError(schema, encoded, Errors(schema, references, encoded).First());
    return encoded;
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/mutate/mutate.mjs




// ------------------------------------------------------------------
// IsStandardObject
// ------------------------------------------------------------------
function IsStandardObject(value) {
    return (0,guard/* IsObject */.av)(value) && !(0,guard/* IsArray */.QS)(value);
}
// ------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------
class ValueMutateError extends error/* TypeBoxError */.i {
    constructor(message) {
        super(message);
    }
}
function mutate_ObjectType(root, path, current, next) {
    if (!IsStandardObject(current)) {
        pointer_Set(root, path, Clone(next));
    }
    else {
        const currentKeys = Object.getOwnPropertyNames(current);
        const nextKeys = Object.getOwnPropertyNames(next);
        for (const currentKey of currentKeys) {
            if (!nextKeys.includes(currentKey)) {
                delete current[currentKey];
            }
        }
        for (const nextKey of nextKeys) {
            if (!currentKeys.includes(nextKey)) {
                current[nextKey] = null;
            }
        }
        for (const nextKey of nextKeys) {
            mutate_Visit(root, `${path}/${nextKey}`, current[nextKey], next[nextKey]);
        }
    }
}
function mutate_ArrayType(root, path, current, next) {
    if (!(0,guard/* IsArray */.QS)(current)) {
        pointer_Set(root, path, Clone(next));
    }
    else {
        for (let index = 0; index < next.length; index++) {
            mutate_Visit(root, `${path}/${index}`, current[index], next[index]);
        }
        current.splice(next.length);
    }
}
function mutate_TypedArrayType(root, path, current, next) {
    if ((0,guard/* IsTypedArray */.Qb)(current) && current.length === next.length) {
        for (let i = 0; i < current.length; i++) {
            current[i] = next[i];
        }
    }
    else {
        pointer_Set(root, path, Clone(next));
    }
}
function mutate_ValueType(root, path, current, next) {
    if (current === next)
        return;
    pointer_Set(root, path, next);
}
function mutate_Visit(root, path, current, next) {
    if ((0,guard/* IsArray */.QS)(next))
        return mutate_ArrayType(root, path, current, next);
    if ((0,guard/* IsTypedArray */.Qb)(next))
        return mutate_TypedArrayType(root, path, current, next);
    if (IsStandardObject(next))
        return mutate_ObjectType(root, path, current, next);
    if ((0,guard/* IsValueType */.u$)(next))
        return mutate_ValueType(root, path, current, next);
}
// ------------------------------------------------------------------
// IsNonMutableValue
// ------------------------------------------------------------------
function IsNonMutableValue(value) {
    return (0,guard/* IsTypedArray */.Qb)(value) || (0,guard/* IsValueType */.u$)(value);
}
function IsMismatchedValue(current, next) {
    // prettier-ignore
    return ((IsStandardObject(current) && (0,guard/* IsArray */.QS)(next)) ||
        ((0,guard/* IsArray */.QS)(current) && IsStandardObject(next)));
}
// ------------------------------------------------------------------
// Mutate
// ------------------------------------------------------------------
/** `[Mutable]` Performs a deep mutable value assignment while retaining internal references */
function Mutate(current, next) {
    if (IsNonMutableValue(current) || IsNonMutableValue(next))
        throw new ValueMutateError('Only object and array types can be mutated at the root level');
    if (IsMismatchedValue(current, next))
        throw new ValueMutateError('Cannot assign due type mismatch of assignable values');
    mutate_Visit(current, '', current, next);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/parse/parse.mjs








// ------------------------------------------------------------------
// Guards
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Error
// ------------------------------------------------------------------
class ParseError extends error/* TypeBoxError */.i {
    constructor(message) {
        super(message);
    }
}
// prettier-ignore
var ParseRegistry;
(function (ParseRegistry) {
    const registry = new Map([
        ['Assert', (type, references, value) => { Assert(type, references, value); return value; }],
        ['Cast', (type, references, value) => Cast(type, references, value)],
        ['Clean', (type, references, value) => Clean(type, references, value)],
        ['Clone', (_type, _references, value) => Clone(value)],
        ['Convert', (type, references, value) => Convert(type, references, value)],
        ['Decode', (type, references, value) => (HasTransform(type, references) ? TransformDecode(type, references, value) : value)],
        ['Default', (type, references, value) => default_Default(type, references, value)],
        ['Encode', (type, references, value) => (HasTransform(type, references) ? TransformEncode(type, references, value) : value)],
    ]);
    // Deletes an entry from the registry
    function Delete(key) {
        registry.delete(key);
    }
    ParseRegistry.Delete = Delete;
    // Sets an entry in the registry
    function Set(key, callback) {
        registry.set(key, callback);
    }
    ParseRegistry.Set = Set;
    // Gets an entry in the registry
    function Get(key) {
        return registry.get(key);
    }
    ParseRegistry.Get = Get;
})(ParseRegistry || (ParseRegistry = {}));
// ------------------------------------------------------------------
// Default Parse Pipeline
// ------------------------------------------------------------------
// prettier-ignore
const ParseDefault = [
    'Clone',
    'Clean',
    'Default',
    'Convert',
    'Assert',
    'Decode'
];
// ------------------------------------------------------------------
// ParseValue
// ------------------------------------------------------------------
function ParseValue(operations, type, references, value) {
    return operations.reduce((value, operationKey) => {
        const operation = ParseRegistry.Get(operationKey);
        if ((0,guard/* IsUndefined */.R1)(operation))
            throw new ParseError(`Unable to find Parse operation '${operationKey}'`);
        return operation(type, references, value);
    }, value);
}
/** Parses a value */
function Parse(...args) {
    // prettier-ignore
    const [operations, schema, references, value] = (args.length === 4 ? [args[0], args[1], args[2], args[3]] :
        args.length === 3 ? (0,guard/* IsArray */.QS)(args[0]) ? [args[0], args[1], [], args[2]] : [ParseDefault, args[0], args[1], args[2]] :
            args.length === 2 ? [ParseDefault, args[0], [], args[1]] :
                (() => { throw new ParseError('Invalid Arguments'); })());
    return ParseValue(operations, schema, references, value);
}

;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/value/value.mjs

















;// CONCATENATED MODULE: ./node_modules/@sinclair/typebox/build/esm/value/index.mjs
// ------------------------------------------------------------------
// Errors (re-export)
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Guards
// ------------------------------------------------------------------

// ------------------------------------------------------------------
// Operators
// ------------------------------------------------------------------

















// ------------------------------------------------------------------
// Namespace
// ------------------------------------------------------------------



/***/ })

};
