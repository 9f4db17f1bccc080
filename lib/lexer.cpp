// (lexer: work in progress)
