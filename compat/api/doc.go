// Package api speaks the executor ⇄ admin HTTP protocol of xxl-job 2.4.2
// (spec: executor-protocol.md).
//
// It provides the wire types, the admin-side endpoints an executor calls
// (/api/registry, /api/registryRemove, /api/callback; [NewHandler]) and the
// admin-side client that calls executors (/run, /beat, /idleBeat, /kill,
// /log; [NewClient]).
//
// # Encodings
//
// Executors write and read JSON with Gson; the admin's own API answers are
// written by Jackson (§1.1). So:
//
//   - [ReturnT] marshals Jackson-style: every member present, nulls as null
//     ({"code":200,"msg":null,"content":null}).
//   - Request bodies sent to executors are encoded Gson-style: nullable
//     members are pointers tagged omitempty (left out when nil), members keep
//     the Java field order, and <, >, &, = and ' are written as \u003c etc.
//     so that the bytes equal what the Java admin sends.
//
// # Decoding
//
// Decoders are as lenient as Gson's data binding, within strict JSON syntax:
//
//   - unknown members are ignored; a missing member or null is the zero value
//     (nil for pointer members);
//   - Java int/long members accept a JSON number or a string holding one,
//     including integral forms such as 7005.0 or 7e3; a fraction or a value
//     outside the Java type's range is an error (Gson's "Expected an int");
//   - string members accept a string, a number (its literal text) or a
//     boolean ("true"/"false"), as Gson does;
//   - boolean members accept true/false or a string ("true" in any case is
//     true, anything else false);
//   - a duplicate member: the last one wins;
//   - trailing data after the JSON value is an error.
//
// Not accepted, unlike lenient Gson: non-standard syntax (unquoted keys,
// single quotes, comments, NaN). No Java executor writes it; its Gson writer
// always produces strict JSON.
package api
