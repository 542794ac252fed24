//! A run of one script's block cut into what its readers read: the
//! stretches of its letters, its digits, and the rest (punctuation).

/// Writes `run`, text of one script's block, to `out`: each stretch of
/// `letter`s as `word` reads it, a digit of the script (`digit`: its value)
/// as an ASCII digit, the joiners (where `letter` does not take them) as
/// nothing, and a space for anything else (the script's punctuation).
/// The readers of Burmese, Khmer and Sinhala read their runs so.
pub(crate) fn read_letters(
    run: &str,
    out: &mut String,
    letter: fn(char) -> bool,
    digit: fn(char) -> Option<u32>,
    word: fn(&str, &mut String),
) {
    let mut rest = run;
    while let Some(c) = rest.chars().next() {
        if letter(c) {
            let end = rest.find(|c| !letter(c)).unwrap_or(rest.len());
            word(&rest[..end], out);
            rest = &rest[end..];
            continue;
        }
        match c {
            '\u{200C}' | '\u{200D}' => {}
            c => match digit(c) {
                Some(value) => out.extend(char::from_digit(value, 10)),
                None => out.push(' '),
            },
        }
        rest = &rest[c.len_utf8()..];
    }
}
