/* The web front's fixed files, built into the binary (app.js, style.css
 * and the replay viewer's boards.js and boards.css are embedded by embed.py
 * at build time). */
#include "assets.h"
#include "util.h"

#include "web_app_js.h"
#include "web_boards_css.h"
#include "web_boards_js.h"
#include "web_style_css.h"

const char *web_app_js(void)
{
    return app_js;
}

const char *web_style_css(void)
{
    return style_css;
}

const char *web_boards_js(void)
{
    return boards_js;
}

const char *web_boards_css(void)
{
    return boards_css;
}

/* No byte of the store goes into a page: the title is one of the fixed
 * words the server passes, the rest is filled by /app.js from /api/. */
char *web_page_html(const char *title)
{
    return xasprintf("<!DOCTYPE html>\n"
                     "<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width\">\n"
                     "<title>Arena \xc2\xb7 %s</title>\n"
                     "<link rel=\"stylesheet\" href=\"/style.css\">\n"
                     "<link rel=\"stylesheet\" href=\"/boards.css\">\n"
                     "<script src=\"/boards.js\" defer></script>\n"
                     "<script src=\"/app.js\" defer></script>\n"
                     "</head><body>\n"
                     "<header><b>Arena</b><a href=\"/\">Standings</a><a href=\"/games\">Games</a>"
                     "<a href=\"/live\">Live</a>"
                     "<a href=\"/settings\">Settings</a><span id=\"live\">connecting</span>"
                     "</header>\n"
                     "<main id=\"main\"><p>Loading\xe2\x80\xa6</p></main>\n"
                     "<noscript><p>These pages need JavaScript; the same data is at "
                     "/api/standings, /api/games and /api/settings.</p></noscript>\n"
                     "</body></html>\n",
                     title);
}
