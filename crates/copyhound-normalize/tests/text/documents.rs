//! PDF and DOCX: text extraction and the refusal of broken, encrypted and
//! malicious files. The documents are built by hand in the tests.

use std::io::{Cursor, Write};

use copyhound_normalize::extract::ExtractError;
use copyhound_normalize::{DocumentKind, LoadError, LoadOptions, load_bytes};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::support::{assert_spans_valid, symbol_string};

/// A PDF file made of `objects` (numbered from 1, object 1 the catalogue),
/// with a correct cross-reference table and `trailer_extra` in the trailer.
fn pdf(objects: &[&str], trailer_extra: &str) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (index, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        write!(out, "{} 0 obj\n{body}\nendobj\n", index + 1).unwrap();
    }
    let xref_at = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).unwrap();
    for offset in offsets {
        writeln!(out, "{offset:010} 00000 n ").unwrap();
    }
    write!(
        out,
        "trailer\n<< /Size {} /Root 1 0 R {trailer_extra} >>\nstartxref\n{xref_at}\n%%EOF\n",
        objects.len() + 1
    )
    .unwrap();
    out
}

const PAGE_TEXT: &str = "BT /F1 24 Tf 72 700 Td (Copy detection works) Tj ET";

fn text_pdf_objects(content: &str) -> Vec<String> {
    vec![
        "<< /Type /Catalog /Pages 2 0 R >>".into(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .into(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".into(),
    ]
}

fn load(name: &str, bytes: &[u8]) -> Result<copyhound_normalize::LoadedDocument, LoadError> {
    load_bytes(name.as_ref(), bytes, &LoadOptions::default())
}

fn extract_problem(result: Result<copyhound_normalize::LoadedDocument, LoadError>) -> ExtractError {
    match result {
        Err(LoadError::Extract { problem, .. }) => problem,
        Err(other) => panic!("expected an extraction error, got {other}"),
        Ok(loaded) => panic!("expected an extraction error, got {:?}", loaded.text),
    }
}

#[test]
fn pdf_text_layer_is_extracted() {
    let objects = text_pdf_objects(PAGE_TEXT);
    let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
    let loaded = load("paper.pdf", &pdf(&objects, "")).unwrap();
    assert_eq!(loaded.kind, DocumentKind::Pdf);
    assert_eq!(loaded.encoding, "PDF");
    assert_eq!(symbol_string(&loaded.doc), "copydetectionworks");
    assert_spans_valid(&loaded.text, &loaded.doc);
}

/// Text shown by the `'` and `"` operators (each a new line, then the
/// text; `"` sets the spacings too) is text like that of `Tj`: the file
/// is not taken for a scan.
#[test]
fn pdf_text_of_quote_operators_is_extracted() {
    let content = "BT /F1 24 Tf 28 TL 72 700 Td (Copy detection) ' (works with) ' \
                   2 0.5 (quote operators) \" ET";
    let objects = text_pdf_objects(content);
    let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
    let loaded = load("quotes.pdf", &pdf(&objects, "")).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(
        symbol_string(&loaded.doc),
        "copydetectionworkswithquoteoperators"
    );
    assert_spans_valid(&loaded.text, &loaded.doc);
}

#[test]
fn pdf_is_recognised_by_magic_bytes_whatever_its_name() {
    let objects = text_pdf_objects(PAGE_TEXT);
    let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
    let loaded = load("download.bin", &pdf(&objects, "")).unwrap();
    assert_eq!(loaded.kind, DocumentKind::Pdf);
}

#[test]
fn pdf_without_text_warns() {
    let objects = text_pdf_objects("0 0 m 100 100 l S");
    let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
    let loaded = load("scan.pdf", &pdf(&objects, "")).unwrap();
    assert!(loaded.doc.is_empty());
    assert_eq!(
        loaded.warnings,
        ["no text: the PDF has no text layer (scanned?)"]
    );
}

#[test]
fn corrupt_pdf_is_refused() {
    let bytes = b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\nstream\x00\x01garbage";
    let result = load("corrupt.pdf", bytes);
    let message = result.as_ref().unwrap_err().to_string();
    assert!(message.starts_with("corrupt.pdf: "), "{message}");
    assert!(
        matches!(
            extract_problem(result),
            ExtractError::CorruptPdf(_) | ExtractError::PdfReaderCrashed(_)
        ),
        "{message}"
    );
}

#[test]
fn pdf_reader_crash_becomes_an_error() {
    // Text drawn with a font the page does not define.
    let mut objects = text_pdf_objects(PAGE_TEXT);
    objects[2] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>".into();
    let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
    let problem = extract_problem(load("fontless.pdf", &pdf(&objects, "")));
    assert!(
        matches!(problem, ExtractError::PdfReaderCrashed(_)),
        "{problem}"
    );
}

#[test]
fn file_named_pdf_that_is_not_one_is_refused() {
    let problem = extract_problem(load("notes.pdf", b"just some text"));
    assert!(matches!(problem, ExtractError::CorruptPdf(_)), "{problem}");
}

#[test]
fn encrypted_pdf_is_refused() {
    // Standard security handler, RC4 40-bit, with a user password that is
    // not empty: the /U entry does not match the empty password.
    let encrypt = format!(
        "<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <{}> /U <{}> >>",
        "7a".repeat(32),
        "3c".repeat(32)
    );
    let mut objects = text_pdf_objects(PAGE_TEXT);
    objects.push(encrypt);
    let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
    let id = "00112233445566778899aabbccddeeff";
    let bytes = pdf(&objects, &format!("/Encrypt 6 0 R /ID [<{id}> <{id}>]"));
    let result = load("secret.pdf", &bytes);
    let message = result.as_ref().unwrap_err().to_string();
    assert_eq!(
        message,
        "secret.pdf: the PDF is encrypted and needs a password to read its text"
    );
    assert_eq!(extract_problem(result), ExtractError::EncryptedPdf);
}

#[test]
fn pdf_decompression_bomb_is_refused() {
    // A content stream of 20 MB of spaces deflates to about 20 KB.
    let mut deflater = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    deflater.write_all(&vec![b' '; 20_000_000]).unwrap();
    let deflated = deflater.finish().unwrap();
    let mut bytes = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    let objects: [&[u8]; 3] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    ];
    for (index, body) in objects.iter().enumerate() {
        offsets.push(bytes.len());
        writeln!(bytes, "{} 0 obj", index + 1).unwrap();
        bytes.extend_from_slice(body);
        bytes.extend_from_slice(b"\nendobj\n");
    }
    offsets.push(bytes.len());
    write!(
        bytes,
        "4 0 obj\n<< /Length {} /Filter /FlateDecode >>\nstream\n",
        deflated.len()
    )
    .unwrap();
    bytes.extend_from_slice(&deflated);
    bytes.extend_from_slice(b"\nendstream\nendobj\n");
    let xref_at = bytes.len();
    write!(bytes, "xref\n0 5\n0000000000 65535 f \n").unwrap();
    for offset in offsets {
        writeln!(bytes, "{offset:010} 00000 n ").unwrap();
    }
    write!(
        bytes,
        "trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n"
    )
    .unwrap();

    let options = LoadOptions {
        max_bytes: 1_000_000,
        ..LoadOptions::default()
    };
    let result = load_bytes("bomb.pdf".as_ref(), &bytes, &options);
    match result {
        Err(LoadError::Extract {
            problem: ExtractError::PdfTooLarge { limit },
            ..
        }) => assert_eq!(limit, 16_000_000),
        Err(other) => panic!("expected PdfTooLarge, got {other}"),
        Ok(_) => panic!("the bomb was extracted"),
    }
    // With room for it, the same file is a PDF without text.
    let roomy = LoadOptions {
        max_bytes: 2_000_000,
        ..LoadOptions::default()
    };
    assert!(
        load_bytes("bomb.pdf".as_ref(), &bytes, &roomy)
            .unwrap()
            .doc
            .is_empty()
    );
}

/// A zip archive of `(name, content)` entries, deflated.
fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (name, content) in entries {
        writer.start_file(*name, options).unwrap();
        writer.write_all(content).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

const CONTENT_TYPES: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#;

const BODY: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>Plagiarism </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>detec</w:t></w:r><w:r><w:t>tion</w:t></w:r></w:p>
<w:p><w:r><w:t>Fish &amp; chips</w:t><w:tab/><w:t>caf&#233;</w:t><w:br/><w:t xml:space="preserve"> next line</w:t></w:r>
<w:del><w:r><w:delText>deleted words</w:delText></w:r></w:del>
<w:r><w:fldChar w:fldCharType="begin"/><w:instrText>PAGE</w:instrText></w:r></w:p>
</w:body></w:document>"#;

const FOOTNOTES: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:footnote w:id="1"><w:p><w:r><w:t>A footnote.</w:t></w:r></w:p></w:footnote></w:footnotes>"#;

fn docx() -> Vec<u8> {
    zip(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("word/document.xml", BODY.as_bytes()),
        ("word/footnotes.xml", FOOTNOTES.as_bytes()),
    ])
}

#[test]
fn docx_text_is_extracted() {
    let loaded = load("essay.docx", &docx()).unwrap();
    assert_eq!(loaded.kind, DocumentKind::Docx);
    assert_eq!(
        loaded.text,
        "Plagiarism detection\nFish & chips\tcafé\n next line\nA footnote.\n"
    );
    assert_spans_valid(&loaded.text, &loaded.doc);
}

#[test]
fn docx_is_recognised_by_content_whatever_its_name() {
    assert_eq!(load("upload", &docx()).unwrap().kind, DocumentKind::Docx);
}

#[test]
fn zip_bomb_named_docx_is_refused_by_its_ratio() {
    // 32 MiB of zeros deflate to about 32 KiB: a ratio of about 1000:1.
    let bomb = vec![0u8; 32 << 20];
    let bytes = zip(&[("word/document.xml", &bomb)]);
    let problem = extract_problem(load("bomb.docx", &bytes));
    match problem {
        ExtractError::DocxCompressionRatio {
            ref part,
            ratio,
            uncompressed,
            ..
        } => {
            assert_eq!(part, "word/document.xml");
            assert!(ratio > 500, "{problem}");
            assert_eq!(uncompressed, 32 << 20);
        }
        other => panic!("expected a ratio error, got {other}"),
    }
}

#[test]
fn docx_part_over_the_size_limit_is_refused() {
    let body = BODY.repeat(2000);
    let bytes = zip(&[("word/document.xml", body.as_bytes())]);
    let options = LoadOptions {
        max_bytes: 100_000,
        ..LoadOptions::default()
    };
    let result = load_bytes("long.docx".as_ref(), &bytes, &options);
    let message = result.as_ref().unwrap_err().to_string();
    assert_eq!(
        message,
        "long.docx: DOCX part word/document.xml expands to more than 100000 bytes; \
         refusing it as a possible zip bomb"
    );
}

#[test]
fn truncated_docx_is_refused() {
    let bytes = docx();
    let problem = extract_problem(load("cut.docx", &bytes[..bytes.len() / 2]));
    assert!(matches!(problem, ExtractError::CorruptDocx(_)), "{problem}");
}

#[test]
fn docx_with_broken_xml_is_refused() {
    let bytes = zip(&[("word/document.xml", b"<w:document><w:body><w:p></w:body>")]);
    let problem = extract_problem(load("broken.docx", &bytes));
    assert!(matches!(problem, ExtractError::CorruptDocx(_)), "{problem}");
}

#[test]
fn zip_that_is_not_a_word_document_is_refused() {
    let bytes = zip(&[("readme.txt", b"hello")]);
    let problem = extract_problem(load("other.docx", &bytes));
    assert_eq!(
        problem.to_string(),
        "corrupt DOCX: no word/document.xml: not a Word document"
    );
}

#[test]
fn password_protected_docx_is_refused() {
    let mut bytes = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    bytes.resize(4096, 0);
    let problem = extract_problem(load("locked.docx", &bytes));
    assert_eq!(problem, ExtractError::OleCompoundFile);
}

#[test]
fn pdf_whose_page_tree_loops_is_refused() {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 4 0 R /Contents 5 0 R >>",
        "<< /Type /Pages /Parent 4 0 R /Kids [3 0 R] /Count 1 >>",
        "<< /Length 4 >>\nstream\nBT E\nendstream",
    ];
    let options = LoadOptions {
        pdf_timeout: std::time::Duration::from_secs(5),
        ..LoadOptions::default()
    };
    let result = load_bytes("loop.pdf".as_ref(), &pdf(&objects, ""), &options);
    let problem = extract_problem(result);
    assert_eq!(
        problem.to_string(),
        "corrupt PDF: the page tree loops: object 4 0 is its own ancestor"
    );
}
