//! The `app:platform/password-hashing` interface (wit/password-hashing.wit) as a small compiled
//! component, composed into the standalone component so that `wasmtime serve` (which cannot
//! supply custom imports) can sign users in. Argon2id with the Node host's parameters and PHC
//! format (host/password/argon2id.ts): a hash made by either verifies on the other.
//!
//! The canonical ABI is written by hand (component-model CanonicalABI.md): two functions of
//! strings, results of `result<string|bool, platform-error>` in a return area, so bindings from
//! `wit-bindgen c` would add a cargo-built tool for ~40 lines of layout. Passwords arrive already
//! NFKC-normalized (the guest normalizes; Zig's standard library has no Unicode normalization).
const std = @import("std");
const argon2 = std.crypto.pwhash.argon2;

const gpa = std.heap.wasm_allocator;

/// OWASP's first choice, as the Node host: 19 MiB, 2 passes, 1 lane; 16-byte salt, 32-byte key.
const default_params: argon2.Params = .{ .t = 2, .m = 19_456, .p = 1 };
const salt_bytes = 16;
const key_bytes = 32;
/// Parameters a stored string may ask for (the Node host's limits: a hostile or corrupt hash).
const max_m = 1 << 20;
const max_t = 16;
const max_p = 16;
/// Longest salt and key accepted from a stored string (the PHC format's own bounds in Zig's std).
const max_bin = 64;

extern "wasi_snapshot_preview1" fn random_get(buf: [*]u8, buf_len: usize) u16;

// ---- canonical ABI: memory -------------------------------------------------------------------

/// Allocation entry point the caller uses to pass strings in (CanonicalABI.md, `cabi_realloc`).
export fn cabi_realloc(old_ptr: ?[*]u8, old_len: usize, alignment: usize, new_len: usize) ?[*]u8 {
    const a = std.mem.Alignment.fromByteUnits(alignment);
    if (old_ptr) |old| {
        if (new_len == 0) {
            gpa.rawFree(old[0..old_len], a, @returnAddress());
            return null;
        }
        if (gpa.rawRemap(old[0..old_len], a, new_len, @returnAddress())) |p| return p;
        const fresh = gpa.rawAlloc(new_len, a, @returnAddress()) orelse @trap();
        @memcpy(fresh[0..@min(old_len, new_len)], old[0..@min(old_len, new_len)]);
        gpa.rawFree(old[0..old_len], a, @returnAddress());
        return fresh;
    }
    if (new_len == 0) return @ptrFromInt(alignment);
    return gpa.rawAlloc(new_len, a, @returnAddress()) orelse @trap();
}

/// Frees a string the caller passed in (strings are lowered with alignment 1).
fn freeArg(ptr: [*]u8, len: usize) void {
    if (len > 0) gpa.rawFree(ptr[0..len], .@"1", @returnAddress());
}

// ---- canonical ABI: results ------------------------------------------------------------------
//
// result<T, platform-error>: discriminant u8 at 0, payload at 8 (platform-error aligns to 8: its
// `conflict` case holds u64s). platform-error: discriminant u8 at 8, case payload at 16; the
// cases used here carry a string (ptr, len). `internal` = 3, `invalid` = 2 (wit/types.wit order).

const ErrorCase = enum(u8) { invalid = 2, internal = 3 };

var ret_area: [48]u8 align(8) = undefined;
/// The string handed out in the last result, freed by the post-return function.
var ret_string: ?[]u8 = null;

fn retOkString(s: []u8) [*]u8 {
    ret_string = s;
    ret_area[0] = 0;
    std.mem.writeInt(u32, ret_area[8..12], @intFromPtr(s.ptr), .little);
    std.mem.writeInt(u32, ret_area[12..16], s.len, .little);
    return &ret_area;
}

fn retOkBool(b: bool) [*]u8 {
    ret_string = null;
    ret_area[0] = 0;
    ret_area[8] = @intFromBool(b);
    return &ret_area;
}

/// `message` is static text: never the password or the stored string.
fn retErr(case: ErrorCase, message: []const u8) [*]u8 {
    ret_string = null;
    ret_area[0] = 1;
    ret_area[8] = @intFromEnum(case);
    std.mem.writeInt(u32, ret_area[16..20], @intFromPtr(message.ptr), .little);
    std.mem.writeInt(u32, ret_area[20..24], message.len, .little);
    return &ret_area;
}

fn postReturn(_: [*]u8) callconv(.c) void {
    if (ret_string) |s| gpa.free(s);
    ret_string = null;
}

// ---- Argon2id ------------------------------------------------------------------------------

fn derive(out: []u8, password: []const u8, salt: []const u8, params: argon2.Params) !void {
    // Single-threaded build: lanes run one after another, so no Io is ever asked to run a task.
    try argon2.kdf(gpa, out, password, salt, params, .argon2id, std.Io.failing);
}

const b64 = std.base64.standard_no_pad;

fn hash(password_ptr: [*]u8, password_len: usize) callconv(.c) [*]u8 {
    defer freeArg(password_ptr, password_len);
    var salt: [salt_bytes]u8 = undefined;
    if (random_get(&salt, salt.len) != 0) return retErr(.internal, "no entropy for a salt");
    var key: [key_bytes]u8 = undefined;
    derive(&key, password_ptr[0..password_len], &salt, default_params) catch return retErr(.internal, "argon2id failed");
    var salt_text: [b64.Encoder.calcSize(salt_bytes)]u8 = undefined;
    var key_text: [b64.Encoder.calcSize(key_bytes)]u8 = undefined;
    const text = std.fmt.allocPrint(gpa, "$argon2id$v=19$m={d},t={d},p={d}${s}${s}", .{
        default_params.m,
        default_params.t,
        default_params.p,
        b64.Encoder.encode(&salt_text, &salt),
        b64.Encoder.encode(&key_text, &key),
    }) catch return retErr(.internal, "out of memory");
    return retOkString(text);
}

const Parsed = struct {
    params: argon2.Params,
    salt: [max_bin]u8 = undefined,
    salt_len: usize = 0,
    key: [max_bin]u8 = undefined,
    key_len: usize = 0,
};

fn number(text: []const u8, max_digits: usize) ?u32 {
    if (text.len == 0 or text.len > max_digits) return null;
    for (text) |c| if (c < '0' or c > '9') return null;
    return std.fmt.parseInt(u32, text, 10) catch null;
}

fn isB64(text: []const u8, min: usize) bool {
    if (text.len < min) return false;
    for (text) |c| if (!std.ascii.isAlphanumeric(c) and c != '+' and c != '/') return false;
    return true;
}

fn decodeInto(dest: *[max_bin]u8, text: []const u8) ?usize {
    const len = b64.Decoder.calcSizeForSlice(text) catch return null;
    if (len > max_bin) return null;
    b64.Decoder.decode(dest[0..len], text) catch return null;
    return len;
}

/// The host's grammar: `$argon2id$v=19$m=<1-7 digits>,t=<1-2>,p=<1-2>$<salt b64 >=16>$<key b64 >=32>`.
fn parse(encoded: []const u8) ?Parsed {
    var parts = std.mem.splitScalar(u8, encoded, '$');
    if (parts.next().?.len != 0) return null;
    if (!std.mem.eql(u8, parts.next() orelse return null, "argon2id")) return null;
    if (!std.mem.eql(u8, parts.next() orelse return null, "v=19")) return null;
    var fields = std.mem.splitScalar(u8, parts.next() orelse return null, ',');
    const m_text = fields.next() orelse return null;
    const t_text = fields.next() orelse return null;
    const p_text = fields.next() orelse return null;
    if (fields.next() != null) return null;
    if (!std.mem.startsWith(u8, m_text, "m=") or !std.mem.startsWith(u8, t_text, "t=") or !std.mem.startsWith(u8, p_text, "p=")) return null;
    const m = number(m_text[2..], 7) orelse return null;
    const t = number(t_text[2..], 2) orelse return null;
    const p = number(p_text[2..], 2) orelse return null;
    if (p < 1 or p > max_p or t < 1 or t > max_t or m < 8 * p or m > max_m) return null;
    const salt_text = parts.next() orelse return null;
    const key_text = parts.next() orelse return null;
    if (parts.next() != null or !isB64(salt_text, 16) or !isB64(key_text, 32)) return null;
    var out: Parsed = .{ .params = .{ .t = t, .m = m, .p = @intCast(p) } };
    out.salt_len = decodeInto(&out.salt, salt_text) orelse return null;
    out.key_len = decodeInto(&out.key, key_text) orelse return null;
    return out;
}

fn verify(password_ptr: [*]u8, password_len: usize, encoded_ptr: [*]u8, encoded_len: usize) callconv(.c) [*]u8 {
    defer freeArg(password_ptr, password_len);
    defer freeArg(encoded_ptr, encoded_len);
    const parsed = parse(encoded_ptr[0..encoded_len]) orelse return retErr(.invalid, "not an argon2id PHC string this component accepts");
    var actual: [max_bin]u8 = undefined;
    derive(actual[0..parsed.key_len], password_ptr[0..password_len], parsed.salt[0..parsed.salt_len], parsed.params) catch
        return retErr(.internal, "argon2id failed");
    // Constant time in the key's contents (its length is public: it is in the stored string).
    var diff: u8 = 0;
    for (actual[0..parsed.key_len], parsed.key[0..parsed.key_len]) |x, y| diff |= x ^ y;
    return retOkBool(diff == 0);
}

// Export names as the component model's core-module convention wants them (`<interface>#<func>`).
const iface = "app:platform/password-hashing@0.1.0";
comptime {
    @export(&hash, .{ .name = iface ++ "#hash" });
    @export(&verify, .{ .name = iface ++ "#verify" });
    @export(&postReturn, .{ .name = "cabi_post_" ++ iface ++ "#hash" });
}
