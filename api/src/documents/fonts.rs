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

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

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

/// The document font: its bytes, the face used in a collection, and krilla's handle.
#[derive(Clone)]
pub struct PdfFont {
    /// Where it was read from.
    pub path: PathBuf,
    /// The whole file (a collection holds several faces).
    data: Arc<Vec<u8>>,
    /// The face used.
    index: u32,
    /// krilla's font (cheap to clone; made once, since it hashes the data).
    font: krilla::text::Font,
}

impl std::fmt::Debug for PdfFont {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdfFont")
            .field("path", &self.path)
            .field("index", &self.index)
            .finish()
    }
}

/// Fonts already loaded by this process, by path and the texts checked (test apps
/// and the server share one copy of a 20 MB file).
static LOADED: OnceLock<Mutex<HashMap<PathBuf, PdfFont>>> = OnceLock::new();

impl PdfFont {
    /// Loads `path` (or the first of [`DEFAULT_FONT_PATHS`] that exists) and checks it
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
        let cache = LOADED.get_or_init(Default::default);
        let cached = cache.lock().expect("font cache").get(&path).cloned();
        let font = match cached {
            Some(font) => font,
            None => {
                let font = Self::read(&path)?;
                cache
                    .lock()
                    .expect("font cache")
                    .insert(path.clone(), font.clone());
                font
            }
        };
        font.check(needed)?;
        Ok(font)
    }

    fn read(path: &Path) -> Result<Self, FontError> {
        let bytes = std::fs::read(path).map_err(|source| FontError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let index = preferred_face(&bytes).ok_or_else(|| FontError::NotAFont(path.into()))?;
        let data = Arc::new(bytes);
        let font = krilla::text::Font::new(data.clone().into(), index)
            .ok_or_else(|| FontError::NotAFont(path.into()))?;
        Ok(Self {
            path: path.to_path_buf(),
            data,
            index,
            font,
        })
    }

    /// Refuses the font when a character of `needed` (whitespace aside) has no glyph.
    pub fn check(&self, needed: &str) -> Result<(), FontError> {
        let face = self.face();
        let missing: BTreeSet<char> = needed
            .chars()
            .filter(|c| !c.is_whitespace() && face.glyph_index(*c).is_none())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(FontError::MissingGlyphs {
            path: self.path.clone(),
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
