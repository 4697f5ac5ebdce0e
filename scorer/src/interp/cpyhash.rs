//! CPython 3.11's hashes under `PYTHONHASHSEED=0` (SipHash-1-3 with a zero key for str/bytes, the
//! numeric hash for ints, xxHash-style for tuples) and its set table layout, so sets iterate and print
//! in the order the official harness (seed 0) shows. Objects hashed by address (None, nodes,
//! instances) have no reproducible order; sets holding them keep insertion order.

use num_traits::ToPrimitive;

use std::rc::Rc;

use super::value::{PyDict, Value};

#[inline]
fn half_round(a: &mut u64, b: &mut u64, c: &mut u64, d: &mut u64, s: u32, t: u32) {
    *a = a.wrapping_add(*b);
    *c = c.wrapping_add(*d);
    *b = b.rotate_left(s) ^ *a;
    *d = d.rotate_left(t) ^ *c;
    *a = a.rotate_left(32);
}

#[inline]
fn single_round(v0: &mut u64, v1: &mut u64, v2: &mut u64, v3: &mut u64) {
    half_round(v0, v1, v2, v3, 13, 16);
    half_round(v2, v1, v0, v3, 17, 21);
}

/// CPython's `siphash13` with k0 = k1 = 0.
pub(crate) fn siphash13(data: &[u8]) -> u64 {
    let (k0, k1) = (0u64, 0u64);
    let mut b: u64 = (data.len() as u64) << 56;
    let mut v0 = k0 ^ 0x736f_6d65_7073_6575;
    let mut v1 = k1 ^ 0x646f_7261_6e64_6f6d;
    let mut v2 = k0 ^ 0x6c79_6765_6e65_7261;
    let mut v3 = k1 ^ 0x7465_6462_7974_6573;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let mut buf = [0u8; 8];
        buf.copy_from_slice(c);
        let mi = u64::from_le_bytes(buf);
        v3 ^= mi;
        single_round(&mut v0, &mut v1, &mut v2, &mut v3);
        v0 ^= mi;
    }
    let rest = chunks.remainder();
    let mut t = [0u8; 8];
    t[..rest.len()].copy_from_slice(rest);
    b |= u64::from_le_bytes(t);
    v3 ^= b;
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    v0 ^= b;
    v2 ^= 0xff;
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    (v0 ^ v1) ^ (v2 ^ v3)
}

fn bytes_hash(data: &[u8]) -> i64 {
    if data.is_empty() {
        return 0;
    }
    let x = siphash13(data) as i64;
    if x == -1 {
        -2
    } else {
        x
    }
}

fn str_hash(s: &str) -> i64 {
    let max = s.chars().map(|c| c as u32).max().unwrap_or(0);
    let mut buf = Vec::with_capacity(s.len() * 2);
    if max <= 0xff {
        buf.extend(s.chars().map(|c| c as u32 as u8));
    } else if max <= 0xffff {
        for c in s.chars() {
            buf.extend_from_slice(&(c as u32 as u16).to_le_bytes());
        }
    } else {
        for c in s.chars() {
            buf.extend_from_slice(&(c as u32).to_le_bytes());
        }
    }
    bytes_hash(&buf)
}

const MODULUS: i128 = (1i128 << 61) - 1;

fn int_hash(n: i128) -> i64 {
    let m = n.abs() % MODULUS;
    let h = if n < 0 { -m } else { m } as i64;
    if h == -1 {
        -2
    } else {
        h
    }
}

/// `hash(v)` as CPython computes it with seed 0, or None when it depends on addresses.
pub(crate) fn py_hash(v: &Value<'_>) -> Option<i64> {
    Some(match v {
        Value::Str(s) => str_hash(s),
        Value::Bytes(b) => bytes_hash(b),
        Value::Int(i) => int_hash(i128::from(*i)),
        Value::Bool(b) => i64::from(*b),
        Value::Big(b) => {
            let m = num_bigint::BigInt::from(MODULUS);
            let r = (b.as_ref() % &m).to_i64()?;
            if r == -1 {
                -2
            } else {
                r
            }
        }
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e18 => int_hash(*f as i128),
        // `hash(real) + 1000003 * hash(imag)` (reproducible when both parts are integral).
        Value::Complex(r, i) => {
            let hr = py_hash(&Value::Float(*r))? as u64;
            let hi = py_hash(&Value::Float(*i))? as u64;
            let h = hr.wrapping_add(hi.wrapping_mul(1_000_003)) as i64;
            if h == -1 {
                -2
            } else {
                h
            }
        }
        Value::Tuple(t) => {
            const P1: u64 = 11400714785074694791;
            const P2: u64 = 14029467366897019727;
            const P5: u64 = 2870177450012600261;
            let mut acc: u64 = P5;
            for x in t.iter() {
                let lane = py_hash(x)? as u64;
                acc = acc.wrapping_add(lane.wrapping_mul(P2));
                acc = acc.rotate_left(31);
                acc = acc.wrapping_mul(P1);
            }
            acc = acc.wrapping_add((t.len() as u64) ^ (P5 ^ 3527539));
            if acc == u64::MAX {
                1546275796
            } else {
                acc as i64
            }
        }
        _ => return None,
    })
}

const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// Entry indices of `d` (a set) in CPython's table order, simulating insertion in the current order.
pub(crate) fn set_order(d: &PyDict<'_>) -> Option<Vec<usize>> {
    let mut items: Vec<(usize, u64)> = Vec::with_capacity(d.len);
    for (i, e) in d.entries.iter().enumerate() {
        if let Some((k, _, _)) = e {
            items.push((i, py_hash(k)? as u64));
        }
    }
    let mut mask: usize = 7;
    let mut table: Vec<Option<(usize, u64)>> = vec![None; 8];
    let mut fill = 0usize;
    for &(idx, h) in &items {
        insert_clean(&mut table, mask, idx, h);
        fill += 1;
        if fill * 5 >= mask * 3 {
            let minused = if fill > 50000 { fill * 2 } else { fill * 4 };
            let mut newsize = 8usize;
            while newsize <= minused {
                newsize <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; newsize]);
            mask = newsize - 1;
            for (i2, h2) in old.into_iter().flatten() {
                insert_clean(&mut table, mask, i2, h2);
            }
        }
    }
    Some(table.into_iter().flatten().map(|(i, _)| i).collect())
}

fn insert_clean(table: &mut [Option<(usize, u64)>], mask: usize, idx: usize, hash: u64) {
    let mut perturb = hash;
    let mut i = (hash as usize) & mask;
    loop {
        if table[i].is_none() {
            table[i] = Some((idx, hash));
            return;
        }
        if i + LINEAR_PROBES <= mask {
            for j in 1..=LINEAR_PROBES {
                if table[i + j].is_none() {
                    table[i + j] = Some((idx, hash));
                    return;
                }
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i.wrapping_mul(5).wrapping_add(1).wrapping_add(perturb as usize)) & mask;
    }
}

/// A table built by inserting `items` (entry index, hash; distinct keys) one by one from empty,
/// resizing as `set_add_entry` does.
fn build_table(items: &[(usize, u64)]) -> Vec<Option<(usize, u64)>> {
    let mut mask: usize = 7;
    let mut table: Vec<Option<(usize, u64)>> = vec![None; 8];
    for (fill, &(idx, h)) in items.iter().enumerate() {
        insert_clean(&mut table, mask, idx, h);
        let fill = fill + 1;
        if fill * 5 >= mask * 3 {
            let minused = if fill > 50000 { fill * 2 } else { fill * 4 };
            let mut newsize = 8usize;
            while newsize <= minused {
                newsize <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; newsize]);
            mask = newsize - 1;
            for (i2, h2) in old.into_iter().flatten() {
                insert_clean(&mut table, mask, i2, h2);
            }
        }
    }
    table
}

/// The iteration order 3.11 gives a set display of three or more constants: the compiler folds
/// them into a frozenset (built in source order, then rebuilt once in its own order when the
/// compiler merges constants), and `SET_UPDATE` merges that into an empty set, copying the
/// table when the sizes agree and reinserting in table order into a table sized for twice the
/// elements otherwise. `None` when a hash is not reproducible.
pub(crate) fn display_order(d: &PyDict<'_>) -> Option<Rc<[u32]>> {
    let mut items: Vec<(usize, u64)> = Vec::with_capacity(d.len);
    for (i, e) in d.entries.iter().enumerate() {
        if let Some((k, _, _)) = e {
            items.push((i, py_hash(k)? as u64));
        }
    }
    let first: Vec<(usize, u64)> = build_table(&items).into_iter().flatten().collect();
    let frozen = build_table(&first);
    let used = first.len();
    let mut mask = 7usize;
    if used * 5 >= 21 {
        let mut newsize = 8usize;
        while newsize <= used * 2 {
            newsize <<= 1;
        }
        mask = newsize - 1;
    }
    let order: Vec<(usize, u64)> = if mask + 1 == frozen.len() {
        frozen.into_iter().flatten().collect()
    } else {
        let mut table = vec![None; mask + 1];
        for (i, h) in frozen.into_iter().flatten() {
            insert_clean(&mut table, mask, i, h);
        }
        table.into_iter().flatten().collect()
    };
    Some(order.into_iter().map(|(i, _)| i as u32).collect())
}

/// Keys of a set in CPython's iteration order (insertion order when it cannot be reproduced).
pub(crate) fn ordered_keys<'a>(d: &PyDict<'a>) -> Vec<Value<'a>> {
    if let Some(p) = &d.pinned {
        if p.len() == d.len && d.entries.len() == d.len {
            return p
                .iter()
                .filter_map(|&i| d.entries.get(i as usize)?.as_ref().map(|(k, _, _)| k.clone()))
                .collect();
        }
    }
    match set_order(d) {
        Some(order) => order
            .into_iter()
            .filter_map(|i| d.entries[i].as_ref().map(|(k, _, _)| k.clone()))
            .collect(),
        None => d.keys(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn str_hashes_match_cpython_seed0() {
        // PYTHONHASHSEED=0 python3 -c "print(hash('a'), hash('abc'), hash('héllo'), hash('日本'), hash(''))"
        assert_eq!(py_hash(&Value::Str(Rc::from("a"))), Some(4644417185603328019));
        assert_eq!(py_hash(&Value::Str(Rc::from("abc"))), Some(-4594863902769663758));
        assert_eq!(py_hash(&Value::Str(Rc::from("héllo"))), Some(6395329678795984700));
        assert_eq!(py_hash(&Value::Str(Rc::from("日本"))), Some(6243316497235261705));
        let t = Value::tuple(vec![Value::Int(1), Value::Str(Rc::from("a"))]);
        assert_eq!(py_hash(&t), Some(3906047847676358913));
        assert_eq!(py_hash(&Value::Str(Rc::from(""))), Some(0));
        assert_eq!(py_hash(&Value::Int(-1)), Some(-2));
    }
}
