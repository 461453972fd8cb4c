// The antlr workload: an ANTLR 2 grammar for a small expression language
// with a lexer, a parser building ASTs and a tree walker.
class CalcParser extends Parser;
options { buildAST = true; k = 2; }

program : (statement)* EOF! ;
statement : ID ASSIGN^ expr SEMI! | "print"^ expr SEMI! ;
expr : term ((PLUS^ | MINUS^) term)* ;
term : factor ((STAR^ | SLASH^ | PERCENT^) factor)* ;
factor : (MINUS^)? atom ;
atom : INT | ID | LPAREN! expr RPAREN! | call ;
call : "max"^ LPAREN! expr (COMMA! expr)* RPAREN! ;

class CalcLexer extends Lexer;
options { k = 2; charVocabulary = '\u0000'..'\u007F'; }

WS : (' ' | '\t' | '\n' { newline(); } | '\r')+ { $setType(Token.SKIP); } ;
COMMENT : "//" (~('\n'|'\r'))* { $setType(Token.SKIP); } ;
ID options { testLiterals = true; } : ('a'..'z'|'A'..'Z'|'_') ('a'..'z'|'A'..'Z'|'_'|'0'..'9')* ;
INT : ('0'..'9')+ ;
ASSIGN : '=' ; SEMI : ';' ; COMMA : ',' ;
PLUS : '+' ; MINUS : '-' ; STAR : '*' ; SLASH : '/' ; PERCENT : '%' ;
LPAREN : '(' ; RPAREN : ')' ;

class CalcTreeWalker extends TreeParser;
{ java.util.Map vars = new java.util.HashMap(); }

program : (statement)* ;
statement { int v; } : #(ASSIGN id:ID v=expr) { vars.put(id.getText(), new Integer(v)); }
                     | #("print" v=expr) { System.out.println(v); } ;
expr returns [int r] { int a, b; r = 0; }
  : #(PLUS a=expr b=expr) { r = a + b; }
  | #(MINUS a=expr (b=expr { r = a - b; } | { r = -a; }))
  | #(STAR a=expr b=expr) { r = a * b; }
  | #(SLASH a=expr b=expr) { r = a / b; }
  | #(PERCENT a=expr b=expr) { r = a % b; }
  | #("max" a=expr { r = a; } (b=expr { if (b > r) r = b; })*)
  | i:INT { r = Integer.parseInt(i.getText()); }
  | v:ID { r = ((Integer) vars.get(v.getText())).intValue(); } ;
