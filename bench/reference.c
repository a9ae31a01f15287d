/*
 * reference.c: the yardstick for bench/bench.py.
 *
 * A minimal, idiomatic ncursesw form: a heading, an email field and a masked password field.
 * Tab or Enter moves focus, printable characters go into the focused field, Backspace deletes,
 * and Ctrl-C ends it through SIGINT (cbreak mode keeps ISIG; ncurses's own handler restores the
 * terminal and exits). It blocks in get_wch() with no timeout, so it is idle while no key arrives.
 *
 * Build: cc -O2 -o bench/out/reference bench/reference.c -lncursesw
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <wchar.h>
#include <wctype.h>

#define FIELD_WIDTH 40
#define FIELD_COUNT 2

struct field {
  const char *label;
  int masked;
  wchar_t text[FIELD_WIDTH + 1];
  int length;
};

/* Draws one field: its label, the bracketed text (or stars), padded to the field width. */
static void draw_field(int row, const struct field *field, int focused) {
  wchar_t shown[FIELD_WIDTH + 1];
  for (int i = 0; i < field->length; i++) shown[i] = field->masked ? L'*' : field->text[i];
  shown[field->length] = L'\0';
  mvprintw(row, 4, "%c %-9s[%-*ls]", focused ? '>' : ' ', field->label, FIELD_WIDTH, shown);
}

/* Redraws both fields and puts the cursor at the end of the focused one. */
static void draw(const struct field *fields, int focus) {
  for (int i = 0; i < FIELD_COUNT; i++) draw_field(6 + 2 * i, &fields[i], i == focus);
  move(6 + 2 * focus, 4 + 2 + 9 + 1 + fields[focus].length);
  refresh();
}

int main(void) {
  struct field fields[FIELD_COUNT] = {{"Email", 0, {0}, 0}, {"Password", 1, {0}, 0}};
  int focus = 0;
  wint_t key;

  setlocale(LC_ALL, "");
  initscr();
  cbreak();
  noecho();
  keypad(stdscr, TRUE);

  mvprintw(2, 34, "Reference GO");
  mvprintw(22, 4, "Tab/Enter move  Ctrl-C quit");
  draw(fields, focus);

  for (;;) {
    int kind = get_wch(&key);
    if (kind == ERR) continue;
    struct field *field = &fields[focus];
    if (key == L'\t' || key == L'\n' || key == L'\r' || (kind == KEY_CODE_YES && key == KEY_ENTER)) {
      focus = (focus + 1) % FIELD_COUNT;
    } else if ((kind == KEY_CODE_YES && key == KEY_BACKSPACE) || key == 127 || key == 8) {
      if (field->length > 0) field->text[--field->length] = L'\0';
    } else if (kind == OK && iswprint(key) && field->length < FIELD_WIDTH) {
      field->text[field->length++] = (wchar_t)key;
      field->text[field->length] = L'\0';
    }
    draw(fields, focus);
  }
}
