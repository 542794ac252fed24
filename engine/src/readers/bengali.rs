//! Bengali as its readers write it in ASCII (rules 6): the inherent vowel
//! left out where speakers leave it out, as Devanagari's readers do
//! (`খুলনা` `khulna`, `রাজশাহী` `rajshahi`, `জামালপুর` `jamalpur`), and
//! Bengali's letters as Bangladesh's own English names of its towns write
//! them: `য` j (`যশোর` `jashor`; y after a consonant, `ব্যাস` `byas`),
//! `ড় ঢ়` r rh (`বগুড়া` `bagura`; Bogura sounds the vowel as o, which
//! the letters do not show), `ং` ng (`রংপুর` `rangpur`), `ৈ` ai (`ভৈরব` `bhairab`), `ৌ` ou,
//! `ফ` f (`ফেনী` `feni`), `ব` w after a consonant (`ঈশ্বরদী` `ishwardi`),
//! `শ ষ` sh, `ৎ` t, `ক্ষ` kh at a word's start; the vowel after a
//! cluster kept (`নেত্রকোণা` `netrakona`, `দত্ত` `datta`), the others
//! weighed from the
//! word's start (`রামগতি` `ramgati`); the glide `য়` between i u e o and
//! a left out (`কুষ্টিয়া` `kushtia`); and the words names end in written
//! as words of their own (`-গঞ্জ` ganj, `-ছড়ি` chhari, `-বাজার` bazar,
//! `-গাঁও` gaon).
//!
//! The Bengali block is laid out as Devanagari's, 0x80 above it: a run is
//! written as its Devanagari counterpart and read by `super::devanagari`
//! with Bengali's speech, so the two scripts share one reading of the
//! inherent vowel. Rules 5 and before read Bengali by CLDR's transform,
//! which writes every inherent vowel (`সিলেট` `sileta`).

use super::devanagari::{self, Speech};

/// The Devanagari counterpart of `run`, a run of Bengali: each letter and
/// sign 0x80 below it, `ৎ` as `त्`, the two-part vowel signs `ো ৌ` whole
/// however they are written (`ে` then `া` or `ৗ`, as the words stage does
/// not compose Bengali), the joiners left out (`র‍্য`), the digits in
/// ASCII.
fn as_devanagari(run: &str) -> String {
    let mut out = String::with_capacity(run.len() + 4);
    let mut chars = run.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // Khanda ta: a `t` with no vowel.
            '\u{09CE}' => out.push_str("त\u{094D}"),
            '\u{09E6}'..='\u{09EF}' => {
                out.push(char::from(b'0' + (c as u32 - 0x09E6) as u8));
            }
            // Assamese ra and wa.
            '\u{09F0}' => out.push('र'),
            '\u{09F1}' => out.push('व'),
            '\u{200C}' | '\u{200D}' => {}
            '\u{09C7}' if chars.next_if_eq(&'\u{09BE}').is_some() => out.push('\u{094B}'),
            '\u{09C7}' if chars.next_if_eq(&'\u{09D7}').is_some() => out.push('\u{094C}'),
            // The au length mark alone.
            '\u{09D7}' => out.push('\u{094C}'),
            // The letters with a dot as their parts (`ড়` as `ড` and `়`),
            // as NFC writes them.
            '\u{09DC}' => out.push_str("\u{0921}\u{093C}"),
            '\u{09DD}' => out.push_str("\u{0922}\u{093C}"),
            '\u{09DF}' => out.push_str("\u{092F}\u{093C}"),
            '\u{0981}'..='\u{09E3}' => {
                out.push(char::from_u32(c as u32 - 0x80).unwrap_or(c));
            }
            _ => out.push(c),
        }
    }
    out
}

/// Writes `run`, a run of Bengali, to `out` as its readers write it.
pub(crate) fn romanize(run: &str, out: &mut String) {
    devanagari::romanize(&as_devanagari(run), Speech::Bengali, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(word: &str) -> String {
        let mut out = String::new();
        romanize(word, &mut out);
        out
    }

    #[test]
    fn as_bangladeshs_own_names_write_them() {
        for (word, want) in [
            ("খুলনা", "khulna"),
            ("রাজশাহী", "rajshahi"),
            ("জামালপুর", "jamalpur"),
            ("রংপুর", "rangpur"),
            ("সিলেট", "silet"),
            ("বাংলাদেশ", "bangladesh"),
            ("চাঁদপুর", "chandpur"),
            ("ফেনী", "feni"),
            ("ফরিদপুর", "faridpur"),
            ("ঈশ্বরদী", "ishwardi"),
            ("নেত্রকোণা", "netrakona"),
            ("গোপালগঞ্জ", "gopalganj"),
            ("গে\u{09BE}পালগঞ্জ", "gopalganj"),
            ("পূর্ব", "purba"),
            ("আম্বা", "amba"),
            ("বিশ্ব", "bishwa"),
            ("র\u{200D}্যাব", "ryab"),
            ("নারায়ণগঞ্জ", "narayanganj"),
            ("ঢাকা", "dhaka"),
            ("বরিশাল", "barishal"),
            // A cluster speech makes is not a written one: `ব` stays b.
            ("ব্রাহ্মণবাড়িয়া", "brahmanbaria"),
            ("কসবা", "kasba"),
            // The glide `য়` after i u e o, before a.
            ("কুষ্টিয়া", "kushtia"),
            ("নোয়াখালী", "noakhali"),
            ("দেয়ারা", "deara"),
            ("বিজয়", "bijay"),
            // The inherent vowels weighed from the word's start.
            ("রামগতি", "ramgati"),
            ("ফটিকছড়ি", "fatikchhari"),
            // The words names end in.
            ("খাগড়াছড়ি", "khagrachhari"),
            ("ঠাকুরগাঁও", "thakurgaon"),
            ("রাজবাড়ী", "rajbari"),
            ("মৌলভীবাজার", "moulbhibazar"),
            ("ভৈরব", "bhairab"),
            ("বাজার", "bazar"),
            ("রামগড়", "ramgarh"),
            // The vowel after a cluster kept at a word's end, before an
            // ending too.
            ("পঞ্চগড়", "panchagarh"),
            ("দত্ত", "datta"),
            ("গোবিন্দগঞ্জ", "gobindaganj"),
            // After ক্ষ and ज्ञ, the next consonant is not in their cluster.
            ("ক্ষেবা", "kheba"),
            // ঙ before a velar is n, where speech drops the vowel between.
            ("রঙকর", "rankar"),
            ("সিরাজগঞ্জ", "sirajganj"),
            // `ড়` however it is written.
            ("বগু\u{09DC}া", "bagura"),
            ("বগু\u{09A1}\u{09BC}া", "bagura"),
            ("ক্ষেতলাল", "khetlal"),
            ("লক্ষ্মীপুর", "lakshmipur"),
        ] {
            assert_eq!(read(word), want, "{word}");
        }
    }
}
