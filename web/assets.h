/* The pages' fixed files: one HTML shell per page (no data in it: app.js
 * fetches the JSON and puts every string on screen as text), the script
 * and the style sheet, and the boards' drawing the live pages share with
 * the replay viewer (referee/viewer/boards.js, boards.css). */
#ifndef ARENA_WEB_ASSETS_H
#define ARENA_WEB_ASSETS_H

/* The page shell with its title (a fixed word, never from the store). */
char *web_page_html(const char *title);
const char *web_app_js(void);
const char *web_style_css(void);
const char *web_boards_js(void);
const char *web_boards_css(void);

#endif
