//! The words the C# grammar reads as keywords.

/// Reserved everywhere: the grammar's fixed words that C# reserves, its
/// predefined types, and the words of literals (`true`, `null`).
pub(super) const KEYWORDS: &[&str] = &[
    "__makeref",
    "__reftype",
    "__refvalue",
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "nint",
    "nuint",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

/// The words of query expressions after their `from … in`.
pub(super) const QUERY_WORDS: &[&str] = &[
    "where",
    "select",
    "orderby",
    "group",
    "by",
    "into",
    "join",
    "on",
    "equals",
    "let",
    "ascending",
    "descending",
    "from",
];

/// Modifiers that may stand before an accessor (`private set;`).
pub(super) const ACCESSOR_MODIFIERS: &[&str] =
    &["private", "protected", "internal", "public", "readonly"];

/// Modifiers that may stand before a member's type (`public static
/// string? Name => …`).
pub(super) const MEMBER_MODIFIERS: &[&str] = &[
    "abstract",
    "extern",
    "internal",
    "new",
    "override",
    "partial",
    "private",
    "protected",
    "public",
    "readonly",
    "required",
    "sealed",
    "static",
    "unsafe",
    "virtual",
    "volatile",
];

/// Attribute targets (`[assembly: …]`).
pub(super) const ATTRIBUTE_TARGETS: &[&str] = &[
    "assembly", "module", "field", "event", "method", "param", "property", "return", "type",
    "typevar",
];

/// The preprocessor directives the grammar knows.
pub(super) const DIRECTIVES: &[&str] = &[
    "define",
    "undef",
    "if",
    "elif",
    "else",
    "endif",
    "region",
    "endregion",
    "error",
    "warning",
    "line",
    "pragma",
    "nullable",
];

/// Words that are keywords inside `#pragma`, `#nullable` and `#line`.
pub(super) const DIRECTIVE_WORDS: &[&str] = &[
    "warning",
    "disable",
    "restore",
    "checksum",
    "enable",
    "warnings",
    "annotations",
    "default",
    "hidden",
];

/// The predefined types, which may stand in type arguments.
pub(super) const PREDEFINED_TYPES: &[&str] = &[
    "bool", "byte", "char", "decimal", "double", "float", "int", "long", "object", "sbyte",
    "short", "string", "uint", "ulong", "ushort", "nint", "nuint", "void",
];

/// Keywords whose parentheses are their own syntax (`typeof(a)`,
/// `if (a)`), never a cast's.
pub(super) const SYNTAX_BEFORE_PARENTHESES: &[&str] = &[
    "typeof",
    "sizeof",
    "default",
    "checked",
    "unchecked",
    "if",
    "while",
    "for",
    "foreach",
    "switch",
    "catch",
    "lock",
    "using",
    "fixed",
    "when",
    "stackalloc",
];
