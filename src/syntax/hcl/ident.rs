//! Where an identifier ends, as HCL's scanner cuts it.
//!
//! hashicorp/hcl `hclsyntax/scan_tokens.rl` scans `Ident` as `(ID_Start | '_') (ID_Continue |
//! '-')*` over bytes, with the byte ranges of [`super::ident_tables`]. Those ranges take some
//! sequences that are not UTF-8 as characters (see there), so this works on the file's bytes,
//! whether or not they are UTF-8. Every alternative of a lead byte has the same length, so a
//! name is read a character at a time: the longest match of the scanner is the run of
//! characters that match.

use super::ident_tables::{Encoding, ID_CONTINUE, ID_START};

/// The end of the identifier at `at`, if one starts there.
pub(crate) fn ident_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut end = at + start_len(bytes, at)?;
    while let Some(len) = continue_len(bytes, end) {
        end += len;
    }
    Some(end)
}

/// The length of the character at `at` that may start an identifier: `ID_Start` or `_`.
pub(crate) fn start_len(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'_' => Some(1),
        b if b.is_ascii_alphabetic() => Some(1),
        b if b < 0x80 => None,
        _ => encoded_len(ID_START, bytes, at),
    }
}

/// The length of the character at `at` that may continue an identifier: `ID_Continue` or `-`.
pub(crate) fn continue_len(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'_' | b'-' => Some(1),
        b if b.is_ascii_alphanumeric() => Some(1),
        b if b < 0x80 => None,
        _ => encoded_len(ID_CONTINUE, bytes, at),
    }
}

/// The length of the alternative of `table` that the bytes at `at` match, if one does.
fn encoded_len(table: &[Encoding], bytes: &[u8], at: usize) -> Option<usize> {
    let lead = *bytes.get(at)?;
    // The entries whose lead range holds `lead` are together, after those whose range ends
    // below it (both ends of the lead ranges rise through the table).
    let first = table.partition_point(|encoding| encoding[0].1 < lead);
    table[first..]
        .iter()
        .take_while(|encoding| encoding[0].0 <= lead)
        .find(|encoding| {
            bytes.get(at..at + encoding.len()).is_some_and(|candidate| {
                candidate
                    .iter()
                    .zip(encoding.iter())
                    .all(|(b, (low, high))| (low..=high).contains(&b))
            })
        })
        .map(|encoding| encoding.len())
}

#[cfg(test)]
mod tests {
    use super::ident_end;

    #[test]
    fn cuts_names_where_hcl_does() {
        assert_eq!(ident_end(b"abc = 1", 0), Some(3));
        assert_eq!(ident_end(b"a-b_c1 ", 0), Some(6));
        assert_eq!(ident_end(b"1a", 0), None);
        assert_eq!(ident_end("\u{e9}t\u{e9} ".as_bytes(), 0), Some(5));
        // A zero-width joiner is no part of a name (Unicode 9 has it outside ID_Continue).
        assert_eq!(ident_end("a\u{200d}".as_bytes(), 0), Some(1));
        // HCL's ranges take a lead byte with any two bytes after it as one character: the
        // space and `=` after `0xE4` are part of the name.
        assert_eq!(ident_end(b"a\xe4 = 1", 0), Some(4));
        assert_eq!(ident_end(b"\xe4\n**", 0), Some(3));
        // A byte that leads no character of the tables starts no name.
        assert_eq!(ident_end(b"\xff", 0), None);
        assert_eq!(ident_end(b"\xe4", 0), None);
    }
}
