//! The tree-sitter front-end: parse, then walk the syntax tree's leaves in
//! order and classify each as a [`Token`].
//!
//! Classification goes by node kind, computed once per grammar into a table
//! indexed by kind id:
//!
//! - comments (and shebang lines) are skipped;
//! - number, character and string nodes become one literal token each,
//!   however the grammar splits them inside; an interpolated string
//!   (`f"…{x}…"`, `` `…${x}…` ``, `"$x"`) becomes its literal pieces with the
//!   code of each interpolation tokenised in between;
//! - identifier leaves — variables, functions, types, fields, labels alike,
//!   as MOSS does — become [`TokenKind::Identifier`]; composite names
//!   (`a::b`, `x.y.z`) are walked so that each part counts;
//! - anonymous leaves are the grammar's fixed strings: words are keywords,
//!   the rest operators or punctuation; named leaves that are not names
//!   (`true`, `null`, `this`, `int`) are keywords too;
//! - Python docstrings (statements that are a lone string) count as
//!   comments;
//! - in Java, parentheses around a whole operand — a value assigned,
//!   passed, returned or initialised with, `x = (y)`, `f((a + b))` — are
//!   dropped: they cannot change what the code means, and obfuscators add
//!   them freely (cheers-d1 wraps most expressions in them). Parentheses
//!   inside an expression (`a * (b + c)`) or around a condition stay. Only
//!   Java, where it was measured: on the C set it cost 0.01 AP
//!   (docs/EVALUATION.md);
//! - `ERROR` regions and raw-text leaves (macro bodies, pragmas) are handed
//!   to the language's table lexer, so broken code still yields tokens.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use tree_sitter::{Node, Parser};

use super::Language;
use super::lexer::lexer;
use super::token::{Token, TokenKind};

/// What the walker does with a node of some kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeClass {
    /// Skip it and everything under it.
    Comment,
    /// An import, include, using or package declaration.
    Import,
    /// A string literal, possibly with interpolations inside.
    String,
    Char,
    Number,
    /// A name; a leaf, or a node whose whole text is one name (`$x` in PHP).
    Identifier,
    /// A node that stands for an operator (`operator_identifier` in Scala).
    Operator,
    /// Code embedded in a string.
    Interpolation,
    /// Text the grammar does not parse: lexed by the table lexer.
    RawText,
    /// A statement, which may be a docstring (a lone string in Python).
    ExpressionStatement,
    /// Anything else: walk its children, or classify it by its text if it
    /// is a leaf.
    Other,
}

/// Words some grammars parse as identifiers although the language reserves
/// them (kotlin-ng has no `null` or `true` node).
fn reserved_word(lang: Language, text: &str) -> bool {
    match lang {
        Language::Kotlin => matches!(text, "null" | "true" | "false" | "this" | "super"),
        _ => false,
    }
}

const SKIPPED: &[&str] = &[
    "haddock",
    "shebang",
    "hash_bang_line",
    "shebang_directive",
    "line_continuation",
];
const IMPORTS: &[&str] = &[
    "preproc_include",
    "import_declaration",
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "package_declaration",
    "package_clause",
    "package_header",
    "using_directive",
    "using_declaration",
    "use_declaration",
    "extern_crate_declaration",
    "import",
    "imports",
    "namespace_use_declaration",
    "require_expression",
    "require_once_expression",
    "include_expression",
    "include_once_expression",
];
const STRINGS: &[&str] = &[
    "string",
    "string_literal",
    "raw_string_literal",
    "verbatim_string_literal",
    "interpolated_string_expression",
    "template_string",
    "interpreted_string_literal",
    "encapsed_string",
    "nowdoc_string",
    "heredoc",
    "heredoc_body",
    "multiline_string_literal",
    "string_array",
    "system_lib_string",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "regex",
    "jsx_text",
    "quasiquote",
    "format_specifier",
];
const CHARS: &[&str] = &[
    "char_literal",
    "character_literal",
    "character",
    "rune_literal",
    "char",
];
const NUMBERS: &[&str] = &[
    "number_literal",
    "integer_literal",
    "float_literal",
    "decimal_integer_literal",
    "hex_integer_literal",
    "octal_integer_literal",
    "binary_integer_literal",
    "decimal_floating_point_literal",
    "hex_floating_point_literal",
    "real_literal",
    "floating_point_literal",
    "float",
    "integer",
    "number",
    "int_literal",
    "imaginary_literal",
    "rational",
    "complex",
];
const INTERPOLATIONS: &[&str] = &[
    "interpolation",
    "template_substitution",
    "string_interpolation",
    "expansion",
    "simple_expansion",
    "command_substitution",
    "arithmetic_expansion",
    "process_substitution",
    "member_access_expression",
    "subscript_expression",
];
const NAMES: &[&str] = &[
    "name",
    "word",
    "variable",
    "constructor",
    "constant",
    "variable_name",
    "instance_variable",
    "class_variable",
    "global_variable",
    "simple_symbol",
    "label",
    "label_name",
    "metavariable",
    "implicit_variable",
    "module_id",
];
const OPERATORS: &[&str] = &["operator_identifier", "operator", "test_operator"];
const RAW_TEXT: &[&str] = &["preproc_arg", "pragma", "cpp", "text"];
/// A parenthesised expression directly under one of these wraps a whole
/// operand, so its parentheses are redundant (see the module docs).
const WHOLE_OPERAND_PARENTS: &[&str] = &[
    "assignment_expression",
    "argument_list",
    "return_statement",
    "variable_declarator",
    "expression_statement",
    "parenthesized_expression",
];
/// The languages whose whole-operand parentheses are dropped.
const WHOLE_OPERAND_PARENTHESES_DROPPED: &[Language] = &[Language::Java];
/// Names made of names: walked, so that each part becomes a token.
const COMPOSITE_NAME_PREFIXES: &[&str] = &["scoped_", "qualified_", "nested_", "stable_"];

fn classify(lang: Language, kind: &str) -> NodeClass {
    if lang == Language::Python && kind == "expression_statement" {
        NodeClass::ExpressionStatement
    } else if kind.contains("comment") || SKIPPED.contains(&kind) {
        NodeClass::Comment
    } else if IMPORTS.contains(&kind) {
        NodeClass::Import
    } else if STRINGS.contains(&kind) {
        NodeClass::String
    } else if CHARS.contains(&kind) {
        NodeClass::Char
    } else if NUMBERS.contains(&kind) {
        NodeClass::Number
    } else if INTERPOLATIONS.contains(&kind) {
        NodeClass::Interpolation
    } else if OPERATORS.contains(&kind) {
        NodeClass::Operator
    } else if RAW_TEXT.contains(&kind) {
        NodeClass::RawText
    } else if COMPOSITE_NAME_PREFIXES
        .iter()
        .any(|prefix| kind.starts_with(prefix))
        || kind.ends_with("identifiers")
        || kind.ends_with("renamed_identifier")
    {
        NodeClass::Other
    } else if kind.contains("identifier") || NAMES.contains(&kind) {
        NodeClass::Identifier
    } else {
        NodeClass::Other
    }
}

/// A compiled grammar and the class of each of its node kinds.
struct Grammar {
    language: tree_sitter::Language,
    classes: Vec<NodeClass>,
    /// By kind id: a parenthesised expression.
    parenthesized: Vec<bool>,
    /// By kind id: a node whose parenthesised child is a whole operand.
    whole_operand_parent: Vec<bool>,
    /// By kind id: an anonymous `(` or `)`, looked up by id because the
    /// walker asks of every leaf, and a kind's name costs a `strlen`.
    parenthesis: Vec<bool>,
}

impl Grammar {
    fn new(lang: Language, language: tree_sitter::Language) -> Self {
        let classes = (0..language.node_kind_count())
            .map(|id| {
                let id = id as u16;
                match language.node_kind_for_id(id) {
                    Some(kind) if language.node_kind_is_named(id) => classify(lang, kind),
                    _ => NodeClass::Other,
                }
            })
            .collect();
        let kind_in = |named: bool, names: &[&str]| -> Vec<bool> {
            if !WHOLE_OPERAND_PARENTHESES_DROPPED.contains(&lang) {
                return Vec::new();
            }
            (0..language.node_kind_count())
                .map(|id| {
                    let id = id as u16;
                    language.node_kind_is_named(id) == named
                        && language
                            .node_kind_for_id(id)
                            .is_some_and(|kind| names.contains(&kind))
                })
                .collect()
        };
        Self {
            parenthesized: kind_in(true, &["parenthesized_expression"]),
            whole_operand_parent: kind_in(true, WHOLE_OPERAND_PARENTS),
            parenthesis: kind_in(false, &["(", ")"]),
            language,
            classes,
        }
    }

    fn kind_in(table: &[bool], kind_id: u16) -> bool {
        table.get(usize::from(kind_id)).copied().unwrap_or(false)
    }

    fn class(&self, node: Node<'_>) -> NodeClass {
        self.classes
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(NodeClass::Other)
    }
}

/// The tree-sitter grammar of `lang`, if it has one and its feature is on.
fn grammar_language(lang: Language) -> Option<tree_sitter::Language> {
    use tree_sitter::Language as Ts;
    Some(match lang {
        #[cfg(feature = "lang-c")]
        Language::C => Ts::new(tree_sitter_c::LANGUAGE),
        #[cfg(feature = "lang-cpp")]
        Language::Cpp => Ts::new(tree_sitter_cpp::LANGUAGE),
        #[cfg(feature = "lang-csharp")]
        Language::CSharp => Ts::new(tree_sitter_c_sharp::LANGUAGE),
        #[cfg(feature = "lang-java")]
        Language::Java => Ts::new(tree_sitter_java::LANGUAGE),
        #[cfg(feature = "lang-kotlin")]
        Language::Kotlin => Ts::new(tree_sitter_kotlin_ng::LANGUAGE),
        #[cfg(feature = "lang-scala")]
        Language::Scala => Ts::new(tree_sitter_scala::LANGUAGE),
        #[cfg(feature = "lang-python")]
        Language::Python => Ts::new(tree_sitter_python::LANGUAGE),
        #[cfg(feature = "lang-javascript")]
        Language::JavaScript => Ts::new(tree_sitter_javascript::LANGUAGE),
        #[cfg(feature = "lang-typescript")]
        Language::TypeScript => Ts::new(tree_sitter_typescript::LANGUAGE_TYPESCRIPT),
        #[cfg(feature = "lang-typescript")]
        Language::Tsx => Ts::new(tree_sitter_typescript::LANGUAGE_TSX),
        #[cfg(feature = "lang-go")]
        Language::Go => Ts::new(tree_sitter_go::LANGUAGE),
        #[cfg(feature = "lang-rust")]
        Language::Rust => Ts::new(tree_sitter_rust::LANGUAGE),
        #[cfg(feature = "lang-php")]
        Language::Php => Ts::new(tree_sitter_php::LANGUAGE_PHP),
        #[cfg(feature = "lang-ruby")]
        Language::Ruby => Ts::new(tree_sitter_ruby::LANGUAGE),
        #[cfg(feature = "lang-haskell")]
        Language::Haskell => Ts::new(tree_sitter_haskell::LANGUAGE),
        #[cfg(feature = "lang-bash")]
        Language::Bash => Ts::new(tree_sitter_bash::LANGUAGE),
        _ => return None,
    })
}

/// The grammar of `lang`, compiled once per process.
fn grammar(lang: Language) -> Option<&'static Grammar> {
    static GRAMMARS: [OnceLock<Option<Grammar>>; 64] = [const { OnceLock::new() }; 64];
    GRAMMARS[lang as usize]
        .get_or_init(|| grammar_language(lang).map(|language| Grammar::new(lang, language)))
        .as_ref()
}

/// Whether `lang` is read through a tree-sitter grammar in this build.
pub(crate) fn has_grammar(lang: Language) -> bool {
    grammar(lang).is_some()
}

thread_local! {
    /// One parser per language and thread, reused across files.
    static PARSERS: RefCell<HashMap<Language, Parser>> = RefCell::new(HashMap::new());
}

/// The tokens of `text` in `lang`, or `None` if `lang` has no grammar in
/// this build or the parser gave up.
pub(crate) fn tokenize(lang: Language, text: &str, drop_imports: bool) -> Option<Vec<Token>> {
    let grammar = grammar(lang)?;
    let tree = PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = parsers.entry(lang).or_insert_with(|| {
            let mut parser = Parser::new();
            parser
                .set_language(&grammar.language)
                .expect("bundled grammars use a supported ABI version");
            parser
        });
        parser.parse(text, None)
    })?;
    let mut walker = Walker {
        lang,
        grammar,
        text,
        drop_imports,
        tokens: Vec::with_capacity(text.len() / 4),
        frames: Vec::new(),
        ancestors: Vec::new(),
    };
    walker.walk(tree.root_node());
    Some(walker.tokens)
}

/// While inside a string node, text between interpolations is literal;
/// inside an interpolation, it is code again.
#[derive(Debug)]
enum Frame {
    String { depth: usize, chunk_start: usize },
    Code { depth: usize },
}

struct Walker<'a> {
    lang: Language,
    grammar: &'a Grammar,
    text: &'a str,
    drop_imports: bool,
    tokens: Vec<Token>,
    frames: Vec<Frame>,
    /// Kind ids of the nodes from the root down to the current one.
    ancestors: Vec<u16>,
}

impl Walker<'_> {
    /// A pre-order walk with an explicit cursor: deep trees (long operator
    /// chains, generated code) must not overflow the stack.
    fn walk(&mut self, root: Node<'_>) {
        let mut cursor = root.walk();
        let mut depth = 0usize;
        loop {
            let descend = self.enter(cursor.node(), depth);
            if descend && cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                self.leave(cursor.node(), depth);
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                depth -= 1;
            }
        }
    }

    fn in_string(&self) -> bool {
        matches!(self.frames.last(), Some(Frame::String { .. }))
    }

    /// Handles a node on the way down; true to walk its children.
    fn enter(&mut self, node: Node<'_>, depth: usize) -> bool {
        self.ancestors.truncate(depth);
        self.ancestors.push(node.kind_id());
        let range = node.byte_range();
        if range.is_empty() || node.is_missing() {
            return false;
        }
        let class = self.grammar.class(node);
        if self.in_string() {
            if matches!(class, NodeClass::Interpolation | NodeClass::Identifier) {
                self.flush_chunk(range.start);
                self.frames.push(Frame::Code { depth });
                return self.enter_code(node, class, depth);
            }
            return node.child_count() > 0;
        }
        self.enter_code(node, class, depth)
    }

    fn enter_code(&mut self, node: Node<'_>, class: NodeClass, depth: usize) -> bool {
        let range = node.byte_range();
        if node.is_error() {
            self.sublex(range);
            return false;
        }
        if self.is_redundant_parenthesis(node, depth) {
            return false;
        }
        match class {
            NodeClass::Comment => false,
            NodeClass::Import if self.drop_imports => false,
            _ if self.drop_imports && self.is_import_statement(node, depth) => false,
            NodeClass::String if node.child_count() > 0 => {
                self.frames.push(Frame::String {
                    depth,
                    chunk_start: range.start,
                });
                true
            }
            NodeClass::String => self.push(TokenKind::String, range),
            NodeClass::Char => self.push(TokenKind::Char, range),
            NodeClass::Number => self.push(TokenKind::Number, range),
            NodeClass::Identifier if reserved_word(self.lang, &self.text[range.clone()]) => {
                self.push(TokenKind::Keyword, range)
            }
            NodeClass::Identifier => self.push(TokenKind::Identifier, range),
            // A docstring is documentation, like a comment.
            NodeClass::ExpressionStatement if self.is_docstring(node) => false,
            NodeClass::Operator => self.push(TokenKind::Operator, range),
            NodeClass::RawText => {
                self.sublex(range);
                false
            }
            _ if node.child_count() == 0 => {
                self.leaf(node);
                false
            }
            _ => true,
        }
    }

    /// Handles a node on the way up: closes the string or interpolation it
    /// opened.
    fn leave(&mut self, node: Node<'_>, depth: usize) {
        let opened_here = match self.frames.last() {
            Some(Frame::String { depth: d, .. } | Frame::Code { depth: d }) => *d == depth,
            None => false,
        };
        if !opened_here {
            return;
        }
        match self.frames.pop() {
            Some(Frame::String { chunk_start, .. }) => {
                self.push_chunk(chunk_start..node.end_byte());
            }
            Some(Frame::Code { .. }) => {
                if let Some(Frame::String { chunk_start, .. }) = self.frames.last_mut() {
                    *chunk_start = node.end_byte();
                }
            }
            None => {}
        }
    }

    /// Emits the literal text of the enclosing string up to `end`.
    fn flush_chunk(&mut self, end: usize) {
        if let Some(Frame::String { chunk_start, .. }) = self.frames.last() {
            let chunk = *chunk_start..end;
            self.push_chunk(chunk);
        }
    }

    fn push_chunk(&mut self, chunk: std::ops::Range<usize>) {
        if self.lang == Language::Kotlin {
            self.push_kotlin_chunk(chunk);
        } else if chunk.start < chunk.end {
            self.push(TokenKind::String, chunk);
        }
    }

    /// kotlin-ng reads the short template `"$name"` as string content, so
    /// the names are picked out here: `$` and the name become an operator
    /// and an identifier, as `${name}` would.
    fn push_kotlin_chunk(&mut self, chunk: std::ops::Range<usize>) {
        let text = self.text;
        let mut literal_start = chunk.start;
        let mut at = chunk.start;
        while let Some(offset) = text[at..chunk.end].find('$') {
            let dollar = at + offset;
            let escaped = text[..dollar].ends_with('\\');
            let name_len = text[dollar + 1..chunk.end]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(chunk.end - dollar - 1);
            let starts_name =
                text[dollar + 1..chunk.end].starts_with(|c: char| c.is_alphabetic() || c == '_');
            if escaped || !starts_name {
                at = dollar + 1;
                continue;
            }
            if literal_start < dollar {
                self.push(TokenKind::String, literal_start..dollar);
            }
            self.push(TokenKind::Operator, dollar..dollar + 1);
            self.push(TokenKind::Identifier, dollar + 1..dollar + 1 + name_len);
            literal_start = dollar + 1 + name_len;
            at = literal_start;
        }
        if literal_start < chunk.end {
            self.push(TokenKind::String, literal_start..chunk.end);
        }
    }

    /// A leaf that is not a literal or a name: a keyword, operator or
    /// punctuation by its text.
    fn leaf(&mut self, node: Node<'_>) {
        let range = node.byte_range();
        let text = &self.text[range.clone()];
        if text.trim().is_empty() {
            return;
        }
        let is_word_char = |c: char| c.is_alphanumeric() || c == '_';
        let kind = if node.is_named() {
            if text.starts_with(|c: char| c.is_ascii_digit()) {
                TokenKind::Number
            } else if text.chars().all(is_word_char) {
                TokenKind::Keyword
            } else if !text.chars().any(|c| is_word_char(c) || c.is_whitespace()) {
                TokenKind::of_symbol_text(text)
            } else {
                self.sublex(range);
                return;
            }
        } else if text.chars().any(char::is_alphabetic) {
            TokenKind::Keyword
        } else {
            TokenKind::of_symbol_text(text)
        };
        self.push(kind, range);
    }

    /// Whether `node` is a parenthesis of a parenthesised expression that
    /// is a whole operand (see the module docs).
    fn is_redundant_parenthesis(&self, node: Node<'_>, depth: usize) -> bool {
        if depth < 2
            || !Grammar::kind_in(&self.grammar.parenthesis, node.kind_id())
            || node.is_named()
        {
            return false;
        }
        let (grandparent, parent) = (self.ancestors[depth - 2], self.ancestors[depth - 1]);
        Grammar::kind_in(&self.grammar.parenthesized, parent)
            && Grammar::kind_in(&self.grammar.whole_operand_parent, grandparent)
    }

    /// Whether a statement only wraps an import (PHP's `require_once "x";`)
    /// or is a top-level one-line `require`.
    fn is_import_statement(&self, node: Node<'_>, depth: usize) -> bool {
        let wraps_import = node.named_child_count() == 1
            && node
                .named_child(0)
                .is_some_and(|child| self.grammar.class(child) == NodeClass::Import);
        wraps_import || (depth == 1 && self.is_require_line(node))
    }

    /// Whether a top-level statement is a one-line `require` (JavaScript's
    /// `const fs = require("fs")`, Ruby's `require "set"`).
    fn is_require_line(&self, node: Node<'_>) -> bool {
        let text = self.text[node.byte_range()].trim();
        !text.contains('\n')
            && ["require(", "require ", "require_relative"]
                .iter()
                .any(|marker| text.contains(marker))
    }

    /// Whether a statement is nothing but a string literal.
    fn is_docstring(&self, node: Node<'_>) -> bool {
        node.named_child_count() == 1
            && node
                .named_child(0)
                .is_some_and(|child| self.grammar.class(child) == NodeClass::String)
    }

    /// Tokenises raw text with the language's table lexer.
    fn sublex(&mut self, range: std::ops::Range<usize>) {
        lexer(self.lang).tokenize_into(self.text, range, &mut self.tokens);
    }

    /// Appends a token; false, so that callers can return "do not descend".
    fn push(&mut self, kind: TokenKind, range: std::ops::Range<usize>) -> bool {
        self.tokens.push(Token { kind, range });
        false
    }
}
