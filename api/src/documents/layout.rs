//! A small flow layout on A4 for the documents: titles, headings, paragraphs that
//! wrap (between words, and between any two CJK characters), label/value lists,
//! tables whose header repeats on each page, an image, and a footer on every page
//! (the lender's name and licence, P14, and "Page n"). Blocks are laid out into a
//! display list first, then drawn with krilla, so the number of pages is known when
//! the footers are written.
//!
//! Units are PDF points (1/72 in); y grows downwards from the top of the page.

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::text::TextDirection;

use super::fonts::LoadedFont;

/// A4 width.
const PAGE_W: f32 = 595.28;
/// A4 height.
const PAGE_H: f32 = 841.89;
/// Margin on every side.
const MARGIN: f32 = 48.0;
/// Height kept free for the footer at the bottom of each page.
const FOOTER_H: f32 = 54.0;
/// Body text size.
pub const BODY: f32 = 9.5;
/// Small text size (notes, footers).
pub const SMALL: f32 = 8.0;

const INK: (u8, u8, u8) = (31, 41, 55);
const MUTED: (u8, u8, u8) = (107, 114, 128);
const RULE: (u8, u8, u8) = (209, 213, 219);
const SHADE: (u8, u8, u8) = (243, 244, 246);
const ACCENT: (u8, u8, u8) = (15, 118, 110);

/// How a table column aligns its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Left.
    Left,
    /// Right (amounts).
    Right,
}

/// A table column: title, share of the text width, alignment.
#[derive(Debug, Clone, Copy)]
pub struct Column<'a> {
    /// The header text.
    pub title: &'a str,
    /// Share of the text width (the shares of a table add up to 1).
    pub share: f32,
    /// Alignment.
    pub align: Align,
}

enum Op {
    Text {
        x: f32,
        baseline: f32,
        size: f32,
        text: String,
        color: (u8, u8, u8),
    },
    Line {
        from: (f32, f32),
        to: (f32, f32),
        width: f32,
        color: (u8, u8, u8),
    },
    Fill {
        rect: (f32, f32, f32, f32),
        color: (u8, u8, u8),
    },
    Image {
        image: krilla::image::Image,
        rect: (f32, f32, f32, f32),
    },
}

/// A document being laid out.
pub struct Layout<'f> {
    font: &'f LoadedFont,
    face: rustybuzz::Face<'f>,
    pages: Vec<Vec<Op>>,
    y: f32,
    footer: Vec<String>,
    page_label: String,
}

impl<'f> Layout<'f> {
    /// An empty document in `font`; `footer` lines are printed at the bottom of every
    /// page, and `page_label` ("Page {n}") at its right.
    pub fn new(font: &'f LoadedFont, footer: Vec<String>, page_label: &str) -> Self {
        Self {
            font,
            face: font.face(),
            pages: vec![Vec::new()],
            y: MARGIN,
            footer,
            page_label: page_label.to_string(),
        }
    }

    fn width_of(&self, text: &str, size: f32) -> f32 {
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        let shaped = rustybuzz::shape(&self.face, &[], buffer);
        let units: i32 = shaped.glyph_positions().iter().map(|p| p.x_advance).sum();
        units as f32 / self.face.units_per_em() as f32 * size
    }

    fn text_width() -> f32 {
        PAGE_W - 2.0 * MARGIN
    }

    fn bottom() -> f32 {
        PAGE_H - MARGIN - FOOTER_H
    }

    fn push(&mut self, op: Op) {
        self.pages.last_mut().expect("a page").push(op);
    }

    /// Starts a new page when `height` does not fit on this one.
    fn ensure(&mut self, height: f32) {
        if self.y + height > Self::bottom() && self.y > MARGIN {
            self.pages.push(Vec::new());
            self.y = MARGIN;
        }
    }

    /// Vertical space.
    pub fn gap(&mut self, height: f32) {
        self.y += height;
    }

    fn text_at(&mut self, x: f32, top: f32, size: f32, text: &str, color: (u8, u8, u8)) {
        if text.is_empty() {
            return;
        }
        self.push(Op::Text {
            x,
            baseline: top + size * 0.95,
            size,
            text: text.to_string(),
            color,
        });
    }

    fn line_height(size: f32) -> f32 {
        size * 1.45
    }

    /// Splits `text` into lines no wider than `width` at `size`.
    pub fn wrap(&self, text: &str, size: f32, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.split('\n') {
            let mut line = String::new();
            for atom in atoms(paragraph) {
                let candidate = format!("{line}{atom}");
                if line.is_empty() || self.width_of(candidate.trim_end(), size) <= width {
                    line = candidate;
                    if self.width_of(line.trim_end(), size) > width {
                        // One atom wider than the line (a hash): break it anywhere.
                        let mut piece = String::new();
                        for c in line.chars() {
                            let next = format!("{piece}{c}");
                            if !piece.is_empty() && self.width_of(&next, size) > width {
                                lines.push(std::mem::take(&mut piece));
                                piece.push(c);
                            } else {
                                piece = next;
                            }
                        }
                        line = piece;
                    }
                } else {
                    lines.push(line.trim_end().to_string());
                    line = atom.trim_start().to_string();
                }
            }
            lines.push(line.trim_end().to_string());
        }
        lines
    }

    /// The document title, with a rule under it.
    pub fn title(&mut self, text: &str) {
        let size = 18.0;
        self.ensure(size * 2.0);
        self.text_at(MARGIN, self.y, size, text, ACCENT);
        self.y += size * 1.5;
        self.push(Op::Line {
            from: (MARGIN, self.y),
            to: (PAGE_W - MARGIN, self.y),
            width: 1.2,
            color: ACCENT,
        });
        self.y += 10.0;
    }

    /// A section heading.
    pub fn heading(&mut self, text: &str) {
        let size = 12.0;
        // Kept with what follows: room for the heading and a table's header and first
        // rows (a table asks for three rows), so no heading is stranded at a foot.
        self.ensure(size * 3.0 + (Self::line_height(BODY) + 6.0) * 4.0);
        self.y += 8.0;
        self.text_at(MARGIN, self.y, size, text, INK);
        self.y += size * 1.6;
    }

    /// Wrapped text at `size` (muted when `muted`).
    pub fn paragraph(&mut self, text: &str, size: f32, muted: bool) {
        let color = if muted { MUTED } else { INK };
        for line in self.wrap(text, size, Self::text_width()) {
            self.ensure(Self::line_height(size));
            self.text_at(MARGIN, self.y, size, &line, color);
            self.y += Self::line_height(size);
        }
    }

    /// Label/value pairs: labels in the left 40 %, values wrapped in the rest.
    pub fn pairs(&mut self, rows: &[(&str, String)]) {
        let label_w = Self::text_width() * 0.4;
        let value_w = Self::text_width() - label_w - 8.0;
        for (label, value) in rows {
            let labels = self.wrap(label, BODY, label_w - 8.0);
            let values = self.wrap(value, BODY, value_w);
            let lines = labels.len().max(values.len()) as f32;
            let height = lines * Self::line_height(BODY) + 6.0;
            self.ensure(height);
            let top = self.y + 3.0;
            for (i, line) in labels.iter().enumerate() {
                let y = top + i as f32 * Self::line_height(BODY);
                self.text_at(MARGIN, y, BODY, line, MUTED);
            }
            for (i, line) in values.iter().enumerate() {
                let y = top + i as f32 * Self::line_height(BODY);
                self.text_at(MARGIN + label_w, y, BODY, line, INK);
            }
            self.y += height;
            self.rule(0.5);
        }
    }

    fn rule(&mut self, width: f32) {
        self.push(Op::Line {
            from: (MARGIN, self.y),
            to: (PAGE_W - MARGIN, self.y),
            width,
            color: RULE,
        });
    }

    fn table_header(&mut self, columns: &[Column<'_>]) {
        let height = Self::line_height(BODY) + 6.0;
        self.push(Op::Fill {
            rect: (MARGIN, self.y, Self::text_width(), height),
            color: SHADE,
        });
        self.table_row(
            columns,
            &columns
                .iter()
                .map(|c| c.title.to_string())
                .collect::<Vec<_>>(),
            MUTED,
        );
    }

    fn table_row(&mut self, columns: &[Column<'_>], cells: &[String], color: (u8, u8, u8)) {
        let pad = 4.0;
        let wrapped: Vec<Vec<String>> = columns
            .iter()
            .zip(cells)
            .map(|(column, cell)| {
                let width = column.share * Self::text_width() - 2.0 * pad;
                self.wrap(cell, BODY, width)
            })
            .collect();
        let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1) as f32;
        let height = lines * Self::line_height(BODY) + 6.0;
        let top = self.y + 3.0;
        let mut x = MARGIN;
        for (column, lines) in columns.iter().zip(&wrapped) {
            let width = column.share * Self::text_width();
            for (i, line) in lines.iter().enumerate() {
                let y = top + i as f32 * Self::line_height(BODY);
                let left = match column.align {
                    Align::Left => x + pad,
                    Align::Right => x + width - pad - self.width_of(line, BODY),
                };
                self.text_at(left, y, BODY, line, color);
            }
            x += width;
        }
        self.y += height;
        self.rule(0.5);
    }

    /// A table; the header is repeated at the top of each page it runs onto.
    pub fn table(&mut self, columns: &[Column<'_>], rows: &[Vec<String>]) {
        let row_h = Self::line_height(BODY) + 6.0;
        self.ensure(row_h * 3.0);
        self.table_header(columns);
        for row in rows {
            let lines = columns
                .iter()
                .zip(row)
                .map(|(column, cell)| {
                    self.wrap(cell, BODY, column.share * Self::text_width() - 8.0)
                        .len()
                })
                .max()
                .unwrap_or(1) as f32;
            let height = lines * Self::line_height(BODY) + 6.0;
            if self.y + height > Self::bottom() {
                self.ensure(height + row_h);
                self.table_header(columns);
            }
            self.table_row(columns, row, INK);
        }
    }

    /// A PNG image at most `max_w` × `max_h`, aspect kept. `false` when the bytes are
    /// not a PNG (nothing is drawn).
    pub fn png(&mut self, bytes: Vec<u8>, max_w: f32, max_h: f32) -> bool {
        let Ok(image) = krilla::image::Image::from_png(bytes.into(), true) else {
            return false;
        };
        let (w, h) = image.size();
        if w == 0 || h == 0 {
            return false;
        }
        let scale = (max_w / w as f32).min(max_h / h as f32);
        let (width, height) = (w as f32 * scale, h as f32 * scale);
        self.ensure(height + 8.0);
        self.push(Op::Line {
            from: (MARGIN, self.y + height + 2.0),
            to: (MARGIN + width, self.y + height + 2.0),
            width: 0.5,
            color: RULE,
        });
        self.push(Op::Image {
            image,
            rect: (MARGIN, self.y, width, height),
        });
        self.y += height + 8.0;
        true
    }

    /// The footer of page `number` (from 0) of `count`: a rule, the footer lines and
    /// the page label.
    fn footer_ops(&self, number: usize, count: usize) -> Vec<Op> {
        let mut footer_ops = Vec::new();
        let top = PAGE_H - MARGIN - FOOTER_H + 14.0;
        footer_ops.push(Op::Line {
            from: (MARGIN, top),
            to: (PAGE_W - MARGIN, top),
            width: 0.5,
            color: RULE,
        });
        for (i, line) in self.footer.iter().enumerate() {
            footer_ops.push(Op::Text {
                x: MARGIN,
                baseline: top + 12.0 + i as f32 * Self::line_height(SMALL),
                size: SMALL,
                text: line.clone(),
                color: MUTED,
            });
        }
        let label = self
            .page_label
            .replace("{n}", &format!("{} / {count}", number + 1));
        // Above the rule, right-aligned: never on a footer line, however long.
        footer_ops.push(Op::Text {
            x: PAGE_W - MARGIN - self.width_of(&label, SMALL),
            baseline: top - 4.0,
            size: SMALL,
            text: label,
            color: MUTED,
        });
        footer_ops
    }

    /// Draws the display list with krilla: the PDF bytes. `title` and `language`
    /// (BCP 47) go into the document's metadata.
    pub fn finish(self, title: &str, language: &str) -> Result<Vec<u8>, String> {
        let mut document = krilla::Document::new();
        document.set_metadata(
            krilla::metadata::Metadata::new()
                .title(title.to_string())
                .language(language.to_string()),
        );
        let font = self.font.krilla();
        let count = self.pages.len();
        let settings = PageSettings::from_wh(PAGE_W, PAGE_H).ok_or("page size")?;
        for (number, ops) in self.pages.iter().enumerate() {
            let mut page = document.start_page_with(settings.clone());
            let mut surface = page.surface();
            let footer_ops = self.footer_ops(number, count);
            for op in ops.iter().chain(&footer_ops) {
                draw(&mut surface, &font, op);
            }
            surface.finish();
            page.finish();
        }
        document.finish().map_err(|e| format!("{e:?}"))
    }
}

/// Draws one operation of the display list on a page.
fn draw(surface: &mut krilla::surface::Surface<'_>, font: &krilla::text::Font, op: &Op) {
    match op {
        Op::Text {
            x,
            baseline,
            size,
            text,
            color,
        } => {
            surface.set_fill(Some(fill(*color)));
            surface.set_stroke(None);
            surface.draw_text(
                Point::from_xy(*x, *baseline),
                font.clone(),
                *size,
                text,
                false,
                TextDirection::Auto,
            );
        }
        Op::Line {
            from,
            to,
            width,
            color,
        } => {
            let mut path = PathBuilder::new();
            path.move_to(from.0, from.1);
            path.line_to(to.0, to.1);
            if let Some(path) = path.finish() {
                surface.set_fill(None);
                surface.set_stroke(Some(Stroke {
                    paint: rgb::Color::new(color.0, color.1, color.2).into(),
                    width: *width,
                    ..Stroke::default()
                }));
                surface.draw_path(&path);
            }
        }
        Op::Fill { rect, color } => {
            let mut path = PathBuilder::new();
            if let Some(rect) = Rect::from_xywh(rect.0, rect.1, rect.2, rect.3) {
                path.push_rect(rect);
            }
            if let Some(path) = path.finish() {
                surface.set_stroke(None);
                surface.set_fill(Some(fill(*color)));
                surface.draw_path(&path);
            }
        }
        Op::Image { image, rect } => {
            if let Some(size) = Size::from_wh(rect.2, rect.3) {
                surface.push_transform(&Transform::from_translate(rect.0, rect.1));
                surface.draw_image(image.clone(), size);
                surface.pop();
            }
        }
    }
}

fn fill(color: (u8, u8, u8)) -> Fill {
    Fill {
        paint: rgb::Color::new(color.0, color.1, color.2).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    }
}

/// Whether a line may break before and after `c` (CJK ideographs, kana, hangul,
/// full-width punctuation).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x2FFFF)
}

/// The pieces a line may break between: a word with the spaces after it, or one
/// CJK character (with the spaces after it).
fn atoms(text: &str) -> Vec<String> {
    let mut atoms: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut in_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            current.push(c);
            in_space = true;
            continue;
        }
        let breaks = in_space || is_cjk(c) || current.chars().last().is_some_and(is_cjk);
        if breaks && !current.is_empty() {
            atoms.push(std::mem::take(&mut current));
        }
        in_space = false;
        current.push(c);
    }
    if !current.is_empty() {
        atoms.push(current);
    }
    atoms
}

#[cfg(test)]
mod tests {
    use super::atoms;

    #[test]
    fn lines_break_between_words_and_between_cjk_characters() {
        assert_eq!(atoms("Loan contract no"), vec!["Loan ", "contract ", "no"]);
        assert_eq!(
            atoms("借款合同 HL-1"),
            vec!["借", "款", "合", "同 ", "HL-1"]
        );
        assert_eq!(atoms("金额：100.00"), vec!["金", "额", "：", "100.00"]);
    }
}
