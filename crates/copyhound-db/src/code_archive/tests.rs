use super::*;

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
            bytes: Some(text.as_bytes().to_vec()),
        }],
    }
}

fn prints(archive: &Archive, family: &str) -> Vec<(UnitId, Vec<u64>)> {
    let mut all = Vec::new();
    archive
        .for_each_print(family, |id, hashes| all.push((id, hashes.to_vec())))
        .unwrap();
    all
}

#[test]
fn units_come_back_as_stored_and_a_name_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let archive = Archive::create(dir.path(), "k=10\n", true).unwrap();
    let alice = unit("alice", "java", &[3, 90, u64::MAX], "class A {}");
    let bob = unit("bob", "python", &[7], "print(1)");
    archive.put(&[alice.clone(), bob.clone()]).unwrap();
    drop(archive);

    let archive = Archive::open(dir.path()).unwrap();
    assert_eq!(archive.settings().unwrap(), "k=10\n");
    assert!(archive.keeps_texts());
    assert_eq!(prints(&archive, "java"), vec![(0, vec![3, 90, u64::MAX])]);
    assert_eq!(archive.units(&[0, 1]).unwrap(), vec![alice, bob]);
    assert_eq!(archive.content_of("bob").unwrap(), Some(8));

    let changed = unit("alice", "java", &[4], "class A { int x; }");
    archive.put(std::slice::from_ref(&changed)).unwrap();
    assert_eq!(prints(&archive, "java"), vec![(2, vec![4])]);
    assert_eq!(archive.units(&[2]).unwrap(), vec![changed]);
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
    assert_eq!(files[0].bytes, None);
    assert_eq!(files[0].path, PathBuf::from("/submissions/carol.java"));
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
