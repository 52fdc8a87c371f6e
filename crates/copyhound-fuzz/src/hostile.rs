//! Hostile files, made at run time: the inputs that once hung, inflated or
//! crashed the loader, and well-formed documents to mutate from. Nothing
//! here is stored as a binary; every file is built from its description.

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// A PDF made of `objects` (numbered from 1, object 1 the catalogue) with a
/// correct cross-reference table.
pub fn pdf(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (index, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        writeln!(out, "{} 0 obj", index + 1).expect("write to a vector");
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref_at = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).expect("write");
    for offset in offsets {
        writeln!(out, "{offset:010} 00000 n ").expect("write");
    }
    write!(
        out,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n",
        objects.len() + 1
    )
    .expect("write");
    out
}

/// A stream object with `dictionary` entries around `data`.
pub fn stream(dictionary: &str, data: &[u8]) -> Vec<u8> {
    let mut out = format!("<< {dictionary} /Length {} >>\nstream\n", data.len()).into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\nendstream");
    out
}

/// `data` compressed with zlib (PDF's `FlateDecode`).
pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).expect("write to a vector");
    encoder.finish().expect("write to a vector")
}

/// `count` zero bytes compressed with zlib, without holding them: about
/// a thousandth of `count`.
pub fn zlib_zeros(count: u64) -> Vec<u8> {
    let chunk = vec![0u8; 1 << 20];
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    let mut left = count;
    while left > 0 {
        let take = left.min(chunk.len() as u64) as usize;
        encoder
            .write_all(&chunk[..take])
            .expect("write to a vector");
        left -= take as u64;
    }
    encoder.finish().expect("write to a vector")
}

/// A one-page PDF whose page shows `text` in Helvetica.
pub fn text_pdf(text: &str) -> Vec<u8> {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('(', "\\(")
        .replace(')', "\\)");
    let content = format!("BT /F1 12 Tf 72 700 Td ({escaped}) Tj ET");
    pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
          /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        stream("", content.as_bytes()),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ])
}

/// A PDF whose only page's `/Parent` chain is a cycle: object 4 is its own
/// parent, and holds no `/Resources`, so a reader looking for inherited
/// resources climbs forever (issue #19, case 1: 483 bytes).
pub fn looping_page_tree_pdf() -> Vec<u8> {
    pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 4 0 R /Contents 5 0 R >>".to_vec(),
        b"<< /Type /Pages /Parent 4 0 R /Kids [3 0 R] /Count 1 >>".to_vec(),
        stream("", b"BT /F1 12 Tf 72 700 Td (loop) Tj ET"),
    ])
}

/// A text PDF with an object stream that inflates to `inflated` bytes of
/// zeros: `lopdf` inflates object streams while parsing, before any size
/// check of its own (issue #19, case 2).
pub fn object_stream_bomb_pdf(inflated: u64) -> Vec<u8> {
    let mut objects = text_pdf_objects();
    objects.push(stream(
        "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode",
        &zlib_zeros(inflated),
    ));
    pdf(&objects)
}

/// A text PDF whose page content stream inflates to `inflated` bytes.
pub fn content_stream_bomb_pdf(inflated: u64) -> Vec<u8> {
    let mut objects = text_pdf_objects();
    objects[3] = stream("/Filter /FlateDecode", &zlib_zeros(inflated));
    pdf(&objects)
}

fn text_pdf_objects() -> Vec<Vec<u8>> {
    vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
          /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        stream("", b"BT /F1 12 Tf 72 700 Td (bomb) Tj ET"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ]
}

/// A zip archive of `entries`, deflated.
pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (name, bytes) in entries {
        writer.start_file(*name, options).expect("zip entry");
        writer.write_all(bytes).expect("write to a vector");
    }
    writer.finish().expect("zip").into_inner()
}

/// A Word document whose body is one paragraph of `text`.
pub fn docx(text: &str) -> Vec<u8> {
    let body = format!(
        "<?xml version=\"1.0\"?><w:document xmlns:w=\"w\"><w:body><w:p><w:r><w:t>{text}</w:t>\
         </w:r></w:p></w:body></w:document>"
    );
    zip(&[("word/document.xml", body.as_bytes())])
}

/// A Word document whose body inflates to `inflated` bytes of spaces.
pub fn zip_bomb_docx(inflated: usize) -> Vec<u8> {
    zip(&[("word/document.xml", &vec![b' '; inflated])])
}

/// One line of `bytes` bytes of Python: `x=1;` over and over, no newline.
pub fn one_line_python(bytes: usize) -> String {
    "x=1;".repeat(bytes / 4)
}

/// The seed corpus: small hostile and well-formed files of every kind the
/// loader reads, by name (the extension picks the front-end).
pub fn seeds() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("text.pdf", text_pdf("Copy detection (winnowing) works")),
        ("loop.pdf", looping_page_tree_pdf()),
        ("objstm-bomb.pdf", object_stream_bomb_pdf(8 << 20)),
        ("content-bomb.pdf", content_stream_bomb_pdf(8 << 20)),
        ("essay.docx", docx("Copied passages &amp; their sources")),
        ("bomb.docx", zip_bomb_docx(8 << 20)),
        (
            "page.html",
            b"<html><head><meta charset=latin1><title>t</title></head><body><p>Caf\xe9 \
              <script>var x = '<p>';</script>&amp; more<!-- c --></p></body></html>"
                .to_vec(),
        ),
        (
            "utf16.txt",
            b"\xff\xfeH\x00i\x00 \x00t\x00h\x00e\x00r\x00e\x00".to_vec(),
        ),
        (
            "latin1.txt",
            b"The na\xEFve caf\xE9 owner said \x93d\xE9j\xE0 vu\x94".to_vec(),
        ),
        (
            "Main.java",
            b"class Main { /* c */ public static void main(String[] a) { int x = 0x1F; \
              String s = \"\\\"\"; char c = '\\''; System.out.println(s + c + x); } }"
                .to_vec(),
        ),
        (
            "main.c",
            b"#include <stdio.h>\n#define X(a) (a)*2 \\\n + 1\nint main(void){/* c */ \
              char *s = \"a\\\"b\"; return X('\\n');}\n"
                .to_vec(),
        ),
        (
            "main.py",
            b"def f(x):\n    '''doc'''\n    return [y for y in x if y] # c\n".to_vec(),
        ),
        (
            "main.go",
            b"package main\nfunc main() { s := `raw`; _ = s }\n".to_vec(),
        ),
        (
            "main.js",
            b"const f = (x) => `t${x}` / 2 /* c */; // d\n".to_vec(),
        ),
        ("one-line.py", one_line_python(4096).into_bytes()),
    ]
}
