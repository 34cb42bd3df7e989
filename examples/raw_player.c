/* A raw-socket player for both games, in plain C (no library): it speaks the
 * referee's line protocol (docs/protocol.md) directly.  It knows no rules: on its
 * turn it tries moves from a random start in a fixed order and lets the referee
 * refuse the illegal ones (291), so Gothello passes only when no square is legal.
 * It refuses every Awari draw offer.  SIDE is south/north, black/white or ? for
 * either (referee match gives {side}); launched by referee match, it reads the
 * seat's token from the descriptor REFEREE_TOKEN_FD names and sends that as its
 * name, which proves the seat its own.
 * Build and run:
 *   cc -O2 -o raw_player examples/raw_player.c
 *   ./raw_player awari 29046 [SIDE [SEED [HOST]]]
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static FILE *in, *out;

static int get_line(char *buf, size_t size) { /* one response line, CRLF cut off */
    if (!fgets(buf, (int)size, in)) return 0;
    buf[strcspn(buf, "\r\n")] = 0;
    return 1;
}

static int code_of(const char *line) { return atoi(line); }

static int final_status(int code) { /* Tables 8/9 and §8: the game is over */
    return (code >= 321 && code <= 329) || code == 361 || code == 362 || code == 391 || code == 392 ||
           code == 399;
}

static const char *seat_token(void) { /* one line on the descriptor REFEREE_TOKEN_FD names */
    static char token[64];
    const char *named = getenv("REFEREE_TOKEN_FD");
    if (!named || !*named) return NULL;
    int fd = atoi(named);
    ssize_t got = read(fd, token, sizeof token - 1);
    close(fd);
    if (got <= 0) return NULL;
    token[got] = 0;
    token[strcspn(token, "\r\n")] = 0;
    return token;
}

static int connect_to(const char *host, const char *port) {
    struct addrinfo hints = {0}, *res;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &res) != 0) return -1;
    int fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
    if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) != 0) { close(fd); fd = -1; }
    freeaddrinfo(res);
    return fd;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s awari|gothello PORT [SIDE [SEED [HOST]]]\n", argv[0]); return 2; }
    int awari = strcmp(argv[1], "awari") == 0;
    const char *side = argc > 3 ? argv[3] : "?", *token = seat_token();
    srand(argc > 4 ? (unsigned)atoi(argv[4]) : 1u);
    int fd = connect_to(argc > 5 ? argv[5] : "127.0.0.1", argv[2]);
    if (fd < 0) { perror("connect"); return 1; }
    in = fdopen(fd, "r");
    out = fdopen(dup(fd), "w");
    char line[1024];
    if (!get_line(line, sizeof line) || code_of(line) != 0) return 1; /* 000 greeting */
    fprintf(out, "0.9.1 player %s \"%s\"\r\n", side, token ? token : "raw-c");
    fflush(out);
    int first = -1; /* 1: we move first (black, south) */
    while (first < 0 && get_line(line, sizeof line)) { /* 100/101, 34x, then our role */
        if (code_of(line) == 352) first = 1;
        else if (code_of(line) == 351) first = 0;
        else if (code_of(line) >= 190 && code_of(line) < 200) { fprintf(stderr, "%s\n", line); return 1; }
    }
    const char *awari_moves[2][6] = {{"a", "b", "c", "d", "e", "f"}, {"A", "B", "C", "D", "E", "F"}};
    char squares[26][5];
    int n = 0;
    for (char file = 'a'; file <= 'e'; file++)
        for (char rank = '1'; rank <= '5'; rank++) snprintf(squares[n++], 5, "%c%c", file, rank);
    strcpy(squares[n++], "pass");
    int serial = 1, my_turn = first;
    for (;;) {
        if (my_turn) { /* try moves until one is accepted */
            int count = awari ? 6 : 25, start = rand() % count, done = 0;
            for (int i = 0; i <= count && !done; i++) {
                const char *move = awari ? awari_moves[first][(start + i) % 6]
                                         : (i == count ? squares[25] : squares[(start + i) % count]);
                fprintf(out, first ? "%d %s\r\n" : "%d ... %s\r\n", serial, move);
                fflush(out);
                if (!get_line(line, sizeof line)) return 1;
                int code = code_of(line);
                if (code == 291 && strstr(line, "Illegal move")) continue;
                if (code / 100 != 2) { fprintf(stderr, "refused: %s\n", line); return 1; }
                if (!get_line(line, sizeof line)) return 1; /* the status of our own move */
                if (final_status(code_of(line)) || code == 202) { printf("%s\n", line); return 0; }
                done = 1;
            }
            serial++;
            my_turn = 0;
            continue;
        }
        if (!get_line(line, sizeof line)) return 1; /* the opponent's move, offer or the end */
        int code = code_of(line);
        if (final_status(code)) { printf("%s\n", line); return 0; }
        if (code == 331 || code == 332) { /* a draw offer: refuse it */
            fprintf(out, "nodraw\r\n");
            fflush(out);
            get_line(line, sizeof line); /* 206 */
            get_line(line, sizeof line); /* 333/334 */
        } else if (code >= 311 && code <= 318) {
            my_turn = 1;
        }
    }
}
