//! The one font every PDF document is set in (docs/adr/0010-pdf-documents.md): a font
//! with Latin and CJK glyphs, loaded once at start-up from `PDF_FONT` or, when unset,
//! from the places Linux distributions install Noto Sans CJK (Debian's
//! `fonts-noto-cjk` first).
//!
//! Guarantee: a server that started can print every fixed text of every document in
//! every language it offers. [`PdfFont::load`] checks the font's character map for
//! each character of those texts (and the digits and punctuation of amounts and
//! dates) and refuses the font otherwise, so a missing or wrong font stops the start
//! with a message naming the file and the characters, never a PDF of empty boxes.
//! Text that comes from people (a borrower's name) is drawn as it is.
//!
//! The file (about 20 MB for Noto Sans CJK) is held in memory only while something
//! uses it: the check at start-up, and each document being made ([`PdfFont::open`]).
//! Documents being made at the same time share one copy. Between them the process
//! keeps only the path and the face: a document costs one read of the file from the
//! page cache and one parse (milliseconds), and an api process does not carry 20 MB
//! for a rarely used download (issue 14: peak api memory, bench/PROFILE.md).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use rustybuzz::ttf_parser;

/// Where the font is looked for when `PDF_FONT` is unset, in this order.
pub const DEFAULT_FONT_PATHS: [&str; 4] = [
    // Debian and Ubuntu: `apt-get install fonts-noto-cjk`.
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    // Arch Linux (`noto-fonts-cjk`).
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    // Fedora (`google-noto-sans-cjk-fonts`).
    "/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Regular.ttc",
    // Alpine (`font-noto-cjk`).
    "/usr/share/fonts/noto/NotoSansCJK-Regular.ttc",
];

/// The face of a collection preferred for Chinese text (simplified Chinese glyph forms).
const PREFERRED_FAMILY: &str = "Noto Sans CJK SC";

/// Why the document font cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FontError {
    /// No `PDF_FONT` and none of [`DEFAULT_FONT_PATHS`] exists.
    #[error(
        "no PDF font: set PDF_FONT to a font with Latin and CJK glyphs, or install Noto Sans CJK \
         (Debian: apt-get install fonts-noto-cjk); looked in {0}"
    )]
    NotFound(String),
    /// The file could not be read.
    #[error("PDF font {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not an OpenType/TrueType font or collection.
    #[error("PDF font {0}: not a TrueType/OpenType font or collection")]
    NotAFont(PathBuf),
    /// The font lacks glyphs the documents need.
    #[error("PDF font {path} has no glyph for {missing:?}: documents would print empty boxes; use a font with Latin and CJK glyphs (Noto Sans CJK)")]
    MissingGlyphs {
        /// The file.
        path: PathBuf,
        /// The characters without a glyph (at most 20).
        missing: String,
    },
}

/// The checked document font: its file and the face used in a collection. Cheap to
/// clone; [`PdfFont::open`] loads it for a document.
#[derive(Debug, Clone)]
pub struct PdfFont {
    /// Where it is read from.
    pub path: PathBuf,
    /// The face used.
    index: u32,
}

/// The document font in memory: the whole file (a collection holds several faces) and
/// krilla's handle of the face used.
pub struct LoadedFont {
    data: Arc<Vec<u8>>,
    index: u32,
    /// krilla's font (cheap to clone; made once per load, since it hashes the data).
    font: krilla::text::Font,
}

/// The fonts in memory now, by path: documents made at the same time (and the test
/// apps of one process) share one copy, which goes when the last of them is done.
static IN_USE: OnceLock<Mutex<HashMap<PathBuf, Weak<LoadedFont>>>> = OnceLock::new();

impl PdfFont {
    /// Finds `path` (or the first of [`DEFAULT_FONT_PATHS`] that exists) and checks it
    /// has a glyph for every character of `needed`. Errors: [`FontError`].
    pub fn load(path: Option<&Path>, needed: &str) -> Result<Self, FontError> {
        let path = match path {
            Some(path) => path.to_path_buf(),
            None => DEFAULT_FONT_PATHS
                .iter()
                .map(PathBuf::from)
                .find(|p| p.is_file())
                .ok_or_else(|| FontError::NotFound(DEFAULT_FONT_PATHS.join(", ")))?,
        };
        let loaded = open(&path)?;
        loaded.check(&path, needed)?;
        Ok(Self {
            path,
            index: loaded.index,
        })
    }

    /// The font in memory, for one document: read from its file unless another
    /// document holds it now. Errors: [`FontError::Read`] when the file went away
    /// since start-up, [`FontError::NotAFont`] when it changed into something else.
    pub fn open(&self) -> Result<Arc<LoadedFont>, FontError> {
        let loaded = open(&self.path)?;
        if loaded.index != self.index {
            // Replaced by another font since it was checked: refuse rather than print
            // with an unchecked face.
            return Err(FontError::NotAFont(self.path.clone()));
        }
        Ok(loaded)
    }
}

/// The font at `path` in memory: the copy in use, or a fresh read.
fn open(path: &Path) -> Result<Arc<LoadedFont>, FontError> {
    let in_use = IN_USE.get_or_init(Default::default);
    if let Some(loaded) = in_use
        .lock()
        .expect("font cache")
        .get(path)
        .and_then(Weak::upgrade)
    {
        return Ok(loaded);
    }
    let loaded = Arc::new(LoadedFont::read(path)?);
    let mut in_use = in_use.lock().expect("font cache");
    // Another caller may have read it meanwhile: keep one copy.
    if let Some(earlier) = in_use.get(path).and_then(Weak::upgrade) {
        return Ok(earlier);
    }
    in_use.retain(|_, font| font.strong_count() > 0);
    in_use.insert(path.to_path_buf(), Arc::downgrade(&loaded));
    Ok(loaded)
}

impl LoadedFont {
    fn read(path: &Path) -> Result<Self, FontError> {
        let bytes = std::fs::read(path).map_err(|source| FontError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let index = preferred_face(&bytes).ok_or_else(|| FontError::NotAFont(path.into()))?;
        let data = Arc::new(bytes);
        let font = krilla::text::Font::new(data.clone().into(), index)
            .ok_or_else(|| FontError::NotAFont(path.into()))?;
        Ok(Self { data, index, font })
    }

    /// Refuses the font at `path` when a character of `needed` (whitespace aside) has
    /// no glyph.
    fn check(&self, path: &Path, needed: &str) -> Result<(), FontError> {
        let face = self.face();
        let missing: BTreeSet<char> = needed
            .chars()
            .filter(|c| !c.is_whitespace() && face.glyph_index(*c).is_none())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(FontError::MissingGlyphs {
            path: path.to_path_buf(),
            missing: missing.into_iter().take(20).collect(),
        })
    }

    /// The face for shaping and measuring (parsed on each call: keep it for a document).
    pub fn face(&self) -> rustybuzz::Face<'_> {
        rustybuzz::Face::from_slice(&self.data, self.index)
            .expect("the face was parsed when the font was loaded")
    }

    /// krilla's handle of the face.
    pub fn krilla(&self) -> krilla::text::Font {
        self.font.clone()
    }
}

/// The face of a font file to use: in a collection the one named
/// [`PREFERRED_FAMILY`], else the first; `None` when the data is no font.
fn preferred_face(data: &[u8]) -> Option<u32> {
    let count = ttf_parser::fonts_in_collection(data).unwrap_or(1);
    let family_of = |index: u32| -> Option<String> {
        let face = ttf_parser::Face::parse(data, index).ok()?;
        face.names()
            .into_iter()
            .filter(|name| {
                name.name_id == ttf_parser::name_id::FAMILY
                    || name.name_id == ttf_parser::name_id::TYPOGRAPHIC_FAMILY
            })
            .find_map(|name| name.to_string())
    };
    let faces: Vec<(u32, Option<String>)> = (0..count)
        .filter(|i| ttf_parser::Face::parse(data, *i).is_ok())
        .map(|i| (i, family_of(i)))
        .collect();
    faces
        .iter()
        .find(|(_, family)| family.as_deref() == Some(PREFERRED_FAMILY))
        .or(faces.first())
        .map(|(index, _)| *index)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether any copy of the font at `path` is in memory now.
    fn in_memory(path: &Path) -> bool {
        IN_USE
            .get()
            .and_then(|in_use| in_use.lock().unwrap().get(path).map(Weak::strong_count))
            .unwrap_or(0)
            > 0
    }

    #[test]
    fn the_file_is_in_memory_only_while_a_document_holds_it() {
        // A copy of its own, so that no other test of this binary holds it.
        let system = DEFAULT_FONT_PATHS
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .expect("Noto Sans CJK (scripts/ensure-chromium installs it)");
        let own = std::env::temp_dir().join(format!("font-test-{}.ttc", std::process::id()));
        std::fs::copy(&system, &own).unwrap();
        let font = PdfFont::load(Some(&own), "Loan 借款 0123456789").unwrap();
        assert!(!in_memory(&own), "the check at start-up keeps nothing");
        let first = font.open().unwrap();
        let second = font.open().unwrap();
        assert!(
            Arc::ptr_eq(&first, &second),
            "documents made at once share one copy"
        );
        assert!(first.face().glyph_index('借').is_some());
        drop((first, second));
        assert!(
            !in_memory(&own),
            "nothing keeps the font once the documents are done"
        );
        // It comes back for the next document.
        assert!(font.open().unwrap().face().glyph_index('借').is_some());
        std::fs::remove_file(&own).unwrap();
    }

    #[test]
    fn a_font_without_the_glyphs_is_refused_at_load() {
        let error = PdfFont::load(None, "\u{10FFFD}").unwrap_err();
        assert!(matches!(error, FontError::MissingGlyphs { .. }), "{error}");
    }
}
