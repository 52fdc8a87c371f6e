use super::*;

/// A symbol per word of `text` (its length), spanning the word.
fn words(text: &str) -> NormalizedDocument {
    let mut form = NormalizedDocument::new();
    let mut start = 0;
    for word in text.split(' ') {
        form.push(word.len() as u32 * 1000, start..start + word.len());
        start += word.len() + 1;
    }
    form
}

fn unit(name: &str, family: &str, hashes: &[u64], text: &str) -> ArchivedUnit {
    ArchivedUnit {
        name: name.into(),
        family: family.into(),
        root: "/submissions".into(),
        content: text.len() as u64,
        hashes: hashes.to_vec(),
        files: vec![ArchivedFile {
            name: format!("{name}.java"),
            path: PathBuf::from(format!("/submissions/{name}.java")),
            form: words(text),
            cells: Vec::new(),
            line_starts: text
                .match_indices('\n')
                .map(|(at, _)| at as u32 + 1)
                .collect(),
            text: Some(text.into()),
        }],
    }
}

/// `unit` as it is read back: its texts apart.
fn without_texts(mut unit: ArchivedUnit) -> ArchivedUnit {
    for file in &mut unit.files {
        file.text = None;
    }
    unit
}

/// The id and decoded hashes of every unit of `family` but those `skip`
/// names, read in chunks of `size`.
fn decoded(
    archive: &Archive,
    family: &str,
    skip: impl Fn(UnitId) -> bool,
    size: usize,
) -> Result<Vec<(UnitId, Vec<u64>)>> {
    let mut all = Vec::new();
    let mut hashes = Vec::new();
    archive.print_chunks(family, skip, size, |chunk| {
        for i in 0..chunk.len() {
            chunk.hashes(i, &mut hashes)?;
            all.push((chunk.id(i), hashes.clone()));
        }
        Ok(())
    })?;
    Ok(all)
}

fn prints(archive: &Archive, family: &str) -> Vec<(UnitId, Vec<u64>)> {
    decoded(archive, family, |_| false, PRINT_CHUNK).unwrap()
}

#[test]
fn units_come_back_as_stored_and_a_name_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "k=10\n", true).unwrap();
    let alice = unit("alice", "java", &[3, 90, u64::MAX], "class A {\n}\n");
    let bob = unit("bob", "python", &[7], "print(1)");
    archive.put(&[alice.clone(), bob.clone()]).unwrap();
    drop(archive);

    let archive = Archive::open(dir.path()).unwrap();
    assert_eq!(archive.settings().unwrap(), "k=10\n");
    assert!(archive.keeps_texts());
    assert_eq!(prints(&archive, "java"), vec![(0, vec![3, 90, u64::MAX])]);
    assert_eq!(
        archive.units(&[0, 1]).unwrap(),
        vec![without_texts(alice), without_texts(bob)]
    );
    assert_eq!(
        archive.units(&[0]).unwrap()[0].files[0].line_starts,
        [10, 12]
    );
    assert_eq!(
        archive.text(0, 0).unwrap().as_deref(),
        Some("class A {\n}\n")
    );
    assert_eq!(archive.text(1, 0).unwrap().as_deref(), Some("print(1)"));
    assert_eq!(archive.text(1, 1).unwrap(), None);
    assert_eq!(archive.content_of("bob").unwrap(), Some(8));

    let changed = unit("alice", "java", &[4], "class A { int x; }");
    archive.put(std::slice::from_ref(&changed)).unwrap();
    assert_eq!(prints(&archive, "java"), vec![(2, vec![4])]);
    assert_eq!(archive.units(&[2]).unwrap(), vec![without_texts(changed)]);
    assert_eq!(archive.text(0, 0).unwrap(), None);
    assert_eq!(
        archive.text(2, 0).unwrap().as_deref(),
        Some("class A { int x; }")
    );
    let families = archive.families().unwrap();
    assert_eq!(families.get("java"), Some(&1));
    assert_eq!(families.get("python"), Some(&1));
}

#[test]
fn without_texts_only_the_paths_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "", false).unwrap();
    archive
        .put(&[unit("carol", "c", &[1, 2], "int main;")])
        .unwrap();
    let files = &archive.units(&[0]).unwrap()[0].files;
    assert_eq!(archive.text(0, 0).unwrap(), None);
    assert_eq!(files[0].path, PathBuf::from("/submissions/carol.java"));
    assert_eq!(files[0].form, words("int main;"));
}

#[test]
fn a_second_archive_or_a_missing_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    Archive::create(dir.path(), "", true).unwrap();
    assert!(matches!(
        Archive::create(dir.path(), "", true),
        Err(DbError::AlreadyExists { .. })
    ));
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        Archive::open(empty.path()),
        Err(DbError::NotADatabase { .. })
    ));
}

/// An empty archive in `dir` (keeping texts) that says it is of format
/// `format`.
fn created_as_format(dir: &Path, format: u32) {
    let archive = Archive::create(dir, "", true).unwrap();
    let txn = archive.db.begin_write().unwrap();
    txn.open_table(META)
        .unwrap()
        .insert("format", &format.to_le_bytes()[..])
        .unwrap();
    txn.commit().unwrap();
}

#[test]
fn an_archive_of_another_format_is_refused_by_version() {
    let dir = tempfile::tempdir().unwrap();
    created_as_format(dir.path(), 2);
    let error = Archive::open(dir.path()).unwrap_err();
    assert!(
        matches!(
            error,
            DbError::UnsupportedVersion {
                found: 2,
                supported: 4,
                ..
            }
        ),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("archive.redb: format version 2"),
        "{message}"
    );
}

#[test]
fn an_archive_of_format_3_is_read_and_added_to_deflated() {
    let dir = tempfile::tempdir().unwrap();
    created_as_format(dir.path(), 3);
    let archive = Archive::open(dir.path()).unwrap();
    assert_eq!(archive.format(), 3);
    let alice = unit("alice", "java", &[3, 90], "class A {\n}");
    archive.put(std::slice::from_ref(&alice)).unwrap();
    // Stored as a format-3 build stores it, so that such a build still
    // reads the archive.
    let txn = archive.db.begin_read().unwrap();
    let stored = txn.open_table(FILES).unwrap().get(0).unwrap().unwrap();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::DeflateDecoder::new(stored.value()),
        &mut plain,
    )
    .unwrap();
    // One file, in a raw deflate stream.
    assert_eq!(plain.first(), Some(&1));
    drop(stored);
    drop(txn);
    assert_eq!(archive.units(&[0]).unwrap(), [without_texts(alice)]);
    assert_eq!(archive.text(0, 0).unwrap().as_deref(), Some("class A {\n}"));
    assert_eq!(archive.stats().unwrap().format, 3);
    drop(archive);
    assert_eq!(
        check_archive(dir.path()).unwrap().problems,
        Vec::<String>::new()
    );
}

#[test]
fn family_counts_follow_added_and_replaced_units_and_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "", false).unwrap();
    archive
        .put(&[
            unit("alice", "java", &[3], "class A {}"),
            unit("bob", "python", &[7], "print(1)"),
        ])
        .unwrap();
    // Alice again, now Python: her Java unit goes, and Java with it.
    archive
        .put(&[
            unit("alice", "python", &[4], "print(2)"),
            unit("carol", "c", &[9], "int x;"),
        ])
        .unwrap();
    let expected = BTreeMap::from([("c".to_string(), 1), ("python".to_string(), 2)]);
    assert_eq!(archive.families().unwrap(), expected);
    assert_eq!(archive.families_of_prints().unwrap(), expected);
    let txn = archive.db.begin_write().unwrap();
    txn.open_table(FAMILIES).unwrap().insert("c", 5).unwrap();
    txn.commit().unwrap();
    drop(archive);
    let problems = check_archive(dir.path()).unwrap().problems;
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("the unit counts kept by family"),
        "{problems:?}"
    );
}

#[test]
fn stats_count_units_files_and_families() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "k=10\n", true).unwrap();
    let mut alice = unit("alice", "java", &[3, 90], "class A {}");
    alice.files.push(alice.files[0].clone());
    archive
        .put(&[alice, unit("bob", "python", &[7], "print(1)")])
        .unwrap();
    let stats = archive.stats().unwrap();
    assert_eq!((stats.units, stats.files, stats.format), (2, 3, FORMAT));
    assert_eq!(
        stats.families,
        BTreeMap::from([("java".into(), 1), ("python".into(), 1)])
    );
    assert!(stats.keeps_texts);
    assert!(stats.file_bytes >= stats.print_bytes + stats.stored_file_bytes);
}

#[test]
fn check_reads_every_unit_and_names_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "", true).unwrap();
    archive
        .put(&[
            unit("alice", "java", &[3, 90], "class A {}"),
            unit("bob", "python", &[7], "print(1)"),
        ])
        .unwrap();
    drop(archive);
    let report = check_archive(dir.path()).unwrap();
    assert_eq!(report.problems, Vec::<String>::new());
    assert_eq!((report.units, report.files), (2, 2));

    let archive = Archive::open(dir.path()).unwrap();
    let txn = archive.db.begin_write().unwrap();
    {
        txn.open_table(FILES)
            .unwrap()
            .insert(1, &b"not deflated files"[..])
            .unwrap();
        txn.open_table(PRINTS)
            .unwrap()
            .insert(("java", 9), &[0u8][..])
            .unwrap();
        let mut texts = txn.open_table(TEXTS).unwrap();
        texts.insert(0, &b"not deflated texts"[..]).unwrap();
        texts.insert(7, &b""[..]).unwrap();
    }
    txn.commit().unwrap();
    drop(archive);
    let report = check_archive(dir.path()).unwrap();
    let file = dir.path().join(ARCHIVE_FILE).display().to_string();
    assert_eq!(
        report.problems,
        [
            format!("{file}: corrupt: unit alice (id 0): its texts do not decode"),
            format!("{file}: corrupt: unit bob (id 1): its files do not decode"),
            format!("{file}: corrupt: hashes stored for unit 9 (java), which has no such record"),
            format!("{file}: corrupt: texts stored for unit 7, which has no record"),
        ]
    );
    assert_eq!(report.units, 1);
}

#[test]
fn check_names_a_unit_without_its_texts() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "", true).unwrap();
    let mut alice = unit("alice", "java", &[3], "class A {}");
    alice.files.push(alice.files[0].clone());
    archive.put(&[alice]).unwrap();
    let txn = archive.db.begin_write().unwrap();
    txn.open_table(TEXTS)
        .unwrap()
        .insert(0, codec::encode_texts(&[], Codec::Zstd).as_slice())
        .unwrap();
    txn.commit().unwrap();
    drop(archive);
    let file = dir.path().join(ARCHIVE_FILE).display().to_string();
    assert_eq!(
        check_archive(dir.path()).unwrap().problems,
        [format!(
            "{file}: corrupt: unit alice (id 0): its texts are not one for each file"
        )]
    );
}

proptest::proptest! {
    /// Files come back as they were stored: symbols of any size, spans
    /// that overlap or go backwards, line starts, and apart from them
    /// texts or none; and cut bytes are refused, never a panic.
    #[test]
    fn files_round_trip(
        files in proptest::collection::vec(
            (
                proptest::collection::vec((proptest::prelude::any::<u32>(), 0usize..5000, 0usize..300), 0..60),
                proptest::option::of("[a-z ]{0,40}"),
                proptest::collection::vec((proptest::prelude::any::<u32>(), proptest::prelude::any::<u64>()), 0..3),
            ),
            0..4,
        ),
        cut in proptest::prelude::any::<proptest::sample::Index>(),
    ) {
        let files: Vec<ArchivedFile> = files
            .into_iter()
            .enumerate()
            .map(|(i, (symbols, text, cells))| {
                let mut form = NormalizedDocument::new();
                for (symbol, start, len) in symbols {
                    form.push(symbol % 7 * 600_000_000, start..start + len);
                }
                let line_starts = text.iter().flat_map(|t| t.match_indices(' ')).map(|(at, _)| at as u32 * 9000 + 1).collect();
                ArchivedFile { name: format!("f{i}.py"), path: PathBuf::from(format!("/s/f{i}.py")), form, cells, line_starts, text }
            })
            .collect();
        let texts: Vec<Option<String>> = files.iter().map(|f| f.text.clone()).collect();
        let expected: Vec<ArchivedFile> = files
            .iter()
            .map(|f| ArchivedFile { text: None, ..f.clone() })
            .collect();
        for chosen in [Codec::Deflate, Codec::Zstd] {
            let bytes = codec::encode_files(&files, chosen);
            proptest::prop_assert_eq!(codec::decode_texts(&codec::encode_texts(&files, chosen), chosen), Some(texts.clone()));
            proptest::prop_assert_eq!(codec::file_count(&bytes, chosen), Some(expected.len() as u64));
            proptest::prop_assert_eq!(codec::decode_files(&bytes, chosen), Some(expected.clone()));
            let plain = chosen.decompress(&bytes).unwrap();
            let short = &plain[..cut.index(plain.len().max(1)).min(plain.len().saturating_sub(1))];
            proptest::prop_assert_eq!(codec::decode_files(&chosen.compress(short), chosen), None);
            // Cut compressed bytes are refused too.
            proptest::prop_assert_eq!(codec::decode_files(&bytes[..bytes.len() - 1], chosen), None);
        }
    }
}

#[test]
fn print_chunks_give_every_unit_not_skipped_in_order_and_name_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "", true).unwrap();
    let units: Vec<ArchivedUnit> = (0..7u64)
        .map(|i| {
            unit(
                &format!("u{i}"),
                "java",
                &[i, 100 + i, u64::MAX - i],
                "class A {}",
            )
        })
        .chain([unit("py", "python", &[5], "print(1)")])
        .collect();
    archive.put(&units).unwrap();
    let all = prints(&archive, "java");
    assert_eq!(all.len(), 7);
    for size in [1, 2, 3, 7, 100] {
        let mut seen = Vec::new();
        let mut sizes = Vec::new();
        let mut hashes = Vec::new();
        archive
            .print_chunks(
                "java",
                |id| id % 3 == 1,
                size,
                |chunk| {
                    sizes.push(chunk.len());
                    for i in 0..chunk.len() {
                        chunk.hashes(i, &mut hashes)?;
                        seen.push((chunk.id(i), hashes.clone()));
                    }
                    Ok(())
                },
            )
            .unwrap();
        let expected: Vec<_> = all.iter().filter(|(id, _)| id % 3 != 1).cloned().collect();
        assert_eq!(seen, expected, "chunks of {size}");
        assert!(sizes.iter().all(|&n| (1..=size).contains(&n)), "{sizes:?}");
    }

    let txn = archive.db.begin_write().unwrap();
    txn.open_table(PRINTS)
        .unwrap()
        .insert(("java", 4), &[9u8][..])
        .unwrap();
    txn.commit().unwrap();
    let error = decoded(&archive, "java", |id| id == 4, PRINT_CHUNK)
        .and_then(|_| decoded(&archive, "java", |_| false, PRINT_CHUNK))
        .unwrap_err();
    assert!(
        error.to_string().contains("the hashes of unit 4"),
        "{error}"
    );
}
