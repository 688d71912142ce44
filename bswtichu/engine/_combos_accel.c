/* Optional compiled kernels for bswtichu.engine.combos: play generation from a hand mask.
 *
 * The pure Python version in combos.py is the reference; this module lists the
 * same combinations in the same order (tests/engine/test_engine_accel.py checks
 * that on random hands and tables) and only makes the objects faster.  The
 * engine imports it if it was built and BSWTICHU_PURE is not set.
 *
 * Masks are those of combos.py: card index i is bit i; natural rank r (2..14)
 * owns the four bits from 4*(r-2), one per suit (j, s, p, r); then the Mahjong
 * (52), the Dog (53), the Phoenix (54) and the Dragon (55).
 *
 * combos.py hands over its classes once (`configure`); the combinations made
 * here are plain `Combo` instances whose slots are filled directly, as
 * combos._combo does (the ``cards`` slot stays empty until asked for).
 *
 * The second part (end of file) is the round's hot paths: round.py hands over
 * its classes and shared values (`configure_round`) and gets back compiled
 * `iter_legal_actions` and `apply` methods; the pure methods stay the
 * reference (tests/engine/test_engine_round_accel.py runs both side by side).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdarg.h>
#include <stdint.h>

typedef uint64_t mask_t;

#define MJ_BIT (1ULL << 52)
#define DOG_BIT (1ULL << 53)
#define PH_BIT (1ULL << 54)
#define DR_BIT (1ULL << 55)
#define MASK_LIMIT (1ULL << 56)
#define NATURALS ((1ULL << 52) - 1)
#define RANK_UNITS 0x1111111111111ULL /* one bit per natural rank, at its Jade bit */
#define ACE 14
#define DRAGON_RANK 15
#define LONGEST_STAIRS 7              /* pairs; as combos._stairs caps a lead */

/* The order of ComboType members handed to `configure`. */
enum kind { SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, STAIRS, FOUR_BOMB, STRAIGHT_FLUSH, DOG, N_KINDS };

#define SHIFT(rank) (4 * ((rank) - 2))
#define NIBBLE(mask, rank) ((unsigned)((mask) >> SHIFT(rank)) & 15u)

/* ------------------------------------------------------------------ configuration */

static int configured = 0;
static PyTypeObject *combo_class, *play_class;
static PyObject *kinds[N_KINDS];
static PyObject *natural_singles[52];  /* the shared single of each natural card */
static PyObject *dog_combo, *mahjong_single, *dragon_single, *phoenix_lead, *phoenix_single;
static Py_ssize_t combo_type_at, combo_rank_at, combo_mask_at, combo_length_at, combo_phoenix_at;
static Py_ssize_t play_seat_at, play_phoenix_at, play_combo_at;
static PyTypeObject *card_class;
static Py_ssize_t card_bit_at;
static PyObject *deck[56];  /* the 56 cards by index */

/* Per nibble (the suits held of one rank): the sub-nibbles of one, two and three
 * cards, in the order itertools.combinations gives them. */
static unsigned char subsets[4][16][6];
static unsigned char subset_count[4][16];

static void build_subsets(void)
{
    for (unsigned nibble = 0; nibble < 16; nibble++) {
        int held[4], n = 0;
        for (int s = 0; s < 4; s++)
            if (nibble >> s & 1)
                held[n++] = s;
        for (int a = 0; a < n; a++) {
            subsets[1][nibble][subset_count[1][nibble]++] = 1u << held[a];
            for (int b = a + 1; b < n; b++) {
                subsets[2][nibble][subset_count[2][nibble]++] = (1u << held[a]) | (1u << held[b]);
                for (int c = b + 1; c < n; c++)
                    subsets[3][nibble][subset_count[3][nibble]++] =
                        (1u << held[a]) | (1u << held[b]) | (1u << held[c]);
            }
        }
    }
}

/* Where a slot of `cls` lives in its instances (the slot must be an object slot). */
static int slot_offset(PyTypeObject *cls, const char *name, Py_ssize_t *at)
{
    PyObject *descr = PyDict_GetItemString(cls->tp_dict, name);  /* borrowed */
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", cls->tp_name, name);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot", cls->tp_name, name);
        return -1;
    }
    *at = member->offset;
    return 0;
}

#define SLOT(obj, at) (*(PyObject **)((char *)(obj) + (at)))

static void keep(PyObject **slot, PyObject *value)
{
    Py_INCREF(value);
    Py_XSETREF(*slot, value);
}

/* keep() for a phase name, interned: the round's phase strings are compared by identity */
static void keep_interned(PyObject **slot, PyObject *text)
{
    Py_INCREF(text);
    PyUnicode_InternInPlace(&text);
    Py_XSETREF(*slot, text);
}

static PyObject *configure(PyObject *module, PyObject *args)
{
    PyObject *combo, *kind_tuple, *singles, *dog, *mahjong, *dragon, *lead, *ph_single, *play, *card, *cards;
    if (!PyArg_ParseTuple(args, "O!O!O!OOOOOO!O!O!:configure", &PyType_Type, &combo, &PyTuple_Type, &kind_tuple,
                          &PyTuple_Type, &singles, &dog, &mahjong, &dragon, &lead, &ph_single,
                          &PyType_Type, &play, &PyType_Type, &card, &PyTuple_Type, &cards))
        return NULL;
    if (PyTuple_GET_SIZE(kind_tuple) != N_KINDS || PyTuple_GET_SIZE(singles) != 52 || PyTuple_GET_SIZE(cards) != 56) {
        PyErr_SetString(PyExc_ValueError, "configure: 9 combination types, 52 natural singles and 56 cards");
        return NULL;
    }
    PyTypeObject *combo_cls = (PyTypeObject *)combo, *play_cls = (PyTypeObject *)play;
    PyTypeObject *card_cls = (PyTypeObject *)card;
    if (slot_offset(combo_cls, "type", &combo_type_at) || slot_offset(combo_cls, "rank", &combo_rank_at)
        || slot_offset(combo_cls, "mask", &combo_mask_at) || slot_offset(combo_cls, "length", &combo_length_at)
        || slot_offset(combo_cls, "phoenix_as", &combo_phoenix_at)
        || slot_offset(play_cls, "seat", &play_seat_at) || slot_offset(play_cls, "phoenix_as", &play_phoenix_at)
        || slot_offset(play_cls, "combo", &play_combo_at) || slot_offset(card_cls, "bit", &card_bit_at))
        return NULL;
    for (int i = 0; i < 52; i++) {
        if (!Py_IS_TYPE(PyTuple_GET_ITEM(singles, i), combo_cls)) {
            PyErr_SetString(PyExc_TypeError, "configure: the singles must be combos");
            return NULL;
        }
    }
    PyObject *specials[] = {dog, mahjong, dragon, lead};
    for (int i = 0; i < 4; i++) {
        if (!Py_IS_TYPE(specials[i], combo_cls)) {
            PyErr_SetString(PyExc_TypeError, "configure: the special singles must be combos");
            return NULL;
        }
    }
    for (int i = 0; i < 56; i++) {
        if (!Py_IS_TYPE(PyTuple_GET_ITEM(cards, i), (PyTypeObject *)card)) {
            PyErr_SetString(PyExc_TypeError, "configure: the deck must be cards");
            return NULL;
        }
    }
    for (int i = 0; i < 56; i++)
        keep(&deck[i], PyTuple_GET_ITEM(cards, i));
    keep((PyObject **)&combo_class, combo);
    keep((PyObject **)&play_class, play);
    keep((PyObject **)&card_class, card);
    for (int i = 0; i < N_KINDS; i++)
        keep(&kinds[i], PyTuple_GET_ITEM(kind_tuple, i));
    for (int i = 0; i < 52; i++)
        keep(&natural_singles[i], PyTuple_GET_ITEM(singles, i));
    keep(&dog_combo, dog);
    keep(&mahjong_single, mahjong);
    keep(&dragon_single, dragon);
    keep(&phoenix_lead, lead);
    keep(&phoenix_single, ph_single);
    configured = 1;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ making combos */

/* Append a new Combo (phoenix_as 0: None). */
static int emit(PyObject *out, enum kind kind, long rank, mask_t mask, long length, long phoenix_as)
{
    PyObject *combo = combo_class->tp_alloc(combo_class, 0);
    if (combo == NULL)
        return -1;
    PyObject *rank_obj = PyLong_FromLong(rank);
    PyObject *mask_obj = PyLong_FromUnsignedLongLong(mask);
    PyObject *length_obj = PyLong_FromLong(length);
    PyObject *phoenix_obj = phoenix_as ? PyLong_FromLong(phoenix_as) : Py_NewRef(Py_None);
    if (rank_obj == NULL || mask_obj == NULL || length_obj == NULL || phoenix_obj == NULL) {
        Py_XDECREF(rank_obj);
        Py_XDECREF(mask_obj);
        Py_XDECREF(length_obj);
        Py_XDECREF(phoenix_obj);
        Py_DECREF(combo);
        return -1;
    }
    SLOT(combo, combo_type_at) = Py_NewRef(kinds[kind]);
    SLOT(combo, combo_rank_at) = rank_obj;
    SLOT(combo, combo_mask_at) = mask_obj;
    SLOT(combo, combo_length_at) = length_obj;
    SLOT(combo, combo_phoenix_at) = phoenix_obj;
    int failed = PyList_Append(out, combo);
    Py_DECREF(combo);
    return failed;
}

/* ------------------------------------------------------------------ the table */

/* What the combinations must beat: a kind, its length and rank (no table: none). */
struct table {
    int empty;
    enum kind kind;
    long length;
    double rank;
    long least;  /* the lowest whole rank above the table's: int(rank) + 1 */
};

static int read_table(PyObject *top, struct table *t)
{
    t->empty = top == Py_None;
    t->least = 1;
    t->rank = 0;
    t->length = 0;
    t->kind = SINGLE;
    if (t->empty)
        return 0;
    if (!Py_IS_TYPE(top, combo_class)) {
        PyErr_SetString(PyExc_TypeError, "the table must be a Combo or None");
        return -1;
    }
    PyObject *kind = SLOT(top, combo_type_at), *length = SLOT(top, combo_length_at);
    PyObject *rank = SLOT(top, combo_rank_at);
    if (kind == NULL || length == NULL || rank == NULL) {
        PyErr_SetString(PyExc_ValueError, "the table's combo is incomplete");
        return -1;
    }
    int k = 0;
    while (k < N_KINDS && kinds[k] != kind)
        k++;
    if (k == N_KINDS) {
        PyErr_SetString(PyExc_ValueError, "the table's combo has no known type");
        return -1;
    }
    t->kind = (enum kind)k;
    t->length = PyLong_AsLong(length);
    if (t->length == -1 && PyErr_Occurred())
        return -1;
    t->rank = PyFloat_AsDouble(rank);
    if (t->rank == -1.0 && PyErr_Occurred())
        return -1;
    if (!(t->rank >= 0 && t->rank <= 100) || t->length < 0 || t->length > 56) {
        PyErr_SetString(PyExc_ValueError, "the table's combo has an impossible rank or length");
        return -1;
    }
    t->least = (long)t->rank + 1;
    return 0;
}

/* ------------------------------------------------------------------ generators */

static int add_singles(PyObject *out, mask_t mask, const struct table *t)
{
    if (t->empty) {
        if ((mask & DOG_BIT) && PyList_Append(out, dog_combo))
            return -1;
        if ((mask & MJ_BIT) && PyList_Append(out, mahjong_single))
            return -1;
    }
    for (long rank = t->least > 2 ? t->least : 2; rank <= ACE; rank++) {
        unsigned nibble = NIBBLE(mask, rank);
        for (int s = 0; s < 4; s++)
            if ((nibble >> s & 1) && PyList_Append(out, natural_singles[SHIFT(rank) + s]))
                return -1;
    }
    if (t->empty || t->rank < DRAGON_RANK) {
        if (mask & PH_BIT) {
            if (t->empty) {
                if (PyList_Append(out, phoenix_lead))
                    return -1;
            }
            else {
                PyObject *value = PyFloat_FromDouble(t->rank + 0.5);
                if (value == NULL)
                    return -1;
                PyObject *single = PyObject_CallOneArg(phoenix_single, value);
                Py_DECREF(value);
                if (single == NULL)
                    return -1;
                int failed = PyList_Append(out, single);
                Py_DECREF(single);
                if (failed)
                    return -1;
            }
        }
        if ((mask & DR_BIT) && PyList_Append(out, dragon_single))
            return -1;
    }
    return 0;
}

/* Pairs (size 2) or triples (size 3) above the table: rank by rank, natural ones, then with the Phoenix. */
static int add_sets(PyObject *out, mask_t mask, int size, long least)
{
    enum kind kind = size == 2 ? PAIR : TRIPLE;
    int phoenix = (mask & PH_BIT) != 0;
    for (long rank = least > 2 ? least : 2; rank <= ACE; rank++) {
        unsigned nibble = NIBBLE(mask, rank);
        mask_t base = 0;
        for (int i = 0; i < subset_count[size][nibble]; i++) {
            base = (mask_t)subsets[size][nibble][i] << SHIFT(rank);
            if (emit(out, kind, rank, base, size, 0))
                return -1;
        }
        if (phoenix)
            for (int i = 0; i < subset_count[size - 1][nibble]; i++) {
                base = (mask_t)subsets[size - 1][nibble][i] << SHIFT(rank);
                if (emit(out, kind, rank, base | PH_BIT, size, rank))
                    return -1;
            }
    }
    return 0;
}

static int add_full_houses(PyObject *out, mask_t mask, long least)
{
    int phoenix = (mask & PH_BIT) != 0;
    int count[ACE + 1] = {0};
    for (int r = 2; r <= ACE; r++)
        count[r] = __builtin_popcount(NIBBLE(mask, r));
    for (long t = least > 2 ? least : 2; t <= ACE; t++) {
        if (count[t] < (phoenix ? 2 : 3))
            continue;
        unsigned top_nibble = NIBBLE(mask, t);
        for (long p = 2; p <= ACE; p++) {
            if (p == t || count[p] < (phoenix ? 1 : 2))
                continue;
            unsigned nibble = NIBBLE(mask, p);
            for (int i = 0; i < subset_count[3][top_nibble]; i++) {
                mask_t triple = (mask_t)subsets[3][top_nibble][i] << SHIFT(t);
                for (int j = 0; j < subset_count[2][nibble]; j++)
                    if (emit(out, FULL_HOUSE, t, triple | (mask_t)subsets[2][nibble][j] << SHIFT(p), 5, 0))
                        return -1;
                if (phoenix)
                    for (int j = 0; j < subset_count[1][nibble]; j++)
                        if (emit(out, FULL_HOUSE, t, triple | (mask_t)subsets[1][nibble][j] << SHIFT(p) | PH_BIT,
                                 5, p))
                            return -1;
            }
            if (phoenix)
                for (int i = 0; i < subset_count[2][top_nibble]; i++) {
                    mask_t triple = (mask_t)subsets[2][top_nibble][i] << SHIFT(t) | PH_BIT;
                    for (int j = 0; j < subset_count[2][nibble]; j++)
                        if (emit(out, FULL_HOUSE, t, triple | (mask_t)subsets[2][nibble][j] << SHIFT(p), 5, t))
                            return -1;
                }
        }
    }
    return 0;
}

/* One run of ranks low..high: every choice of cards, rank by rank from `rank`, the
 * ranks' cards in suit order.  `width` cards per rank (1: straights, 2: stairs);
 * at `phoenix_rank` the Phoenix joins `width - 1` natural cards of that rank. */
struct run {
    PyObject *out;
    mask_t mask;
    enum kind kind;
    long low, high, width, phoenix_rank;
};

static int is_flush(mask_t straight)
{
    if (straight & ~NATURALS)
        return 0;
    for (int s = 0; s < 4; s++)
        if ((straight & (RANK_UNITS << s)) == straight)
            return 1;
    return 0;
}

static int expand_run(const struct run *run, long rank, mask_t chosen)
{
    if (rank > run->high) {
        long length = run->width * (run->high - run->low + 1);
        if (run->kind == STRAIGHT && !run->phoenix_rank && is_flush(chosen))
            return 0;  /* a straight flush is a bomb, listed with the bombs */
        return emit(run->out, run->kind, run->high, chosen, length, run->phoenix_rank);
    }
    if (rank == 1)  /* the Mahjong, the lowest card of a straight */
        return expand_run(run, 2, chosen | MJ_BIT);
    unsigned nibble = NIBBLE(run->mask, rank);
    mask_t extra = 0;
    int size = (int)run->width;
    if (rank == run->phoenix_rank) {
        extra = PH_BIT;
        size -= 1;
        if (size == 0)
            return expand_run(run, rank + 1, chosen | extra);
    }
    for (int i = 0; i < subset_count[size][nibble]; i++)
        if (expand_run(run, rank + 1, chosen | extra | (mask_t)subsets[size][nibble][i] << SHIFT(rank)))
            return -1;
    return 0;
}

/* Straights (width 1) or stairs (width 2) of `ranks` ranks from `low`: natural ones,
 * then with the Phoenix standing for each rank in turn. */
static int add_runs(PyObject *out, mask_t mask, enum kind kind, long width, long low, long ranks)
{
    long high = low + ranks - 1;
    int phoenix = (mask & PH_BIT) != 0;
    long short_rank = 0, shorts = 0;
    for (long r = low; r <= high; r++) {
        int held = r == 1 ? ((mask & MJ_BIT) != 0) : __builtin_popcount(NIBBLE(mask, r));
        if (held >= width)
            continue;
        if (r == 1 || held + 1 < width || !phoenix || ++shorts > 1)
            return 0;  /* the Phoenix fills one gap of one card, never the Mahjong's */
        short_rank = r;
    }
    struct run run = {out, mask, kind, low, high, width, 0};
    if (shorts) {
        run.phoenix_rank = short_rank;
        return expand_run(&run, low, 0);
    }
    if (expand_run(&run, low, 0))
        return -1;
    if (phoenix)
        for (long r = low > 2 ? low : 2; r <= high; r++) {
            run.phoenix_rank = r;
            if (expand_run(&run, low, 0))
                return -1;
        }
    return 0;
}

/* Runs of `width` cards a rank from `shortest` to `longest` ranks long, lowest rank
   from `first_low`, top rank at least `least`: by length, then top rank. */
static int add_run_lengths(PyObject *out, mask_t mask, enum kind kind, long width, long first_low,
                           long shortest, long longest, long least)
{
    for (long size = shortest; size <= longest; size++)
        for (long low = first_low; low + size - 1 <= ACE; low++)
            if (low + size - 1 >= least && add_runs(out, mask, kind, width, low, size))
                return -1;
    return 0;
}

/* Straights of `length` (every length from 5 when 0); the Mahjong may start one. */
static int add_straights(PyObject *out, mask_t mask, long length, long least)
{
    return add_run_lengths(out, mask, STRAIGHT, 1, 1, length ? length : 5, length ? length : ACE, least);
}

/* Stairs of `pairs` pairs (every length from 2 to 7 pairs when 0). */
static int add_stairs(PyObject *out, mask_t mask, long pairs, long least)
{
    return add_run_lengths(out, mask, STAIRS, 2, 2, pairs ? pairs : 2, pairs ? pairs : LONGEST_STAIRS, least);
}

/* Bomb order (rules.md R9.3): every straight flush beats every four of a kind. */
static int bomb_beats(enum kind kind, long length, long rank, const struct table *t)
{
    if (t->empty || (t->kind != FOUR_BOMB && t->kind != STRAIGHT_FLUSH))
        return 1;
    if (kind != t->kind)
        return kind == STRAIGHT_FLUSH;
    if (kind == STRAIGHT_FLUSH && length != t->length)
        return length > t->length;
    return rank > t->rank;
}

/* Whether some rank is held four times or some suit five ranks in a row. */
static int may_hold_bomb(mask_t mask)
{
    mask_t n = mask & NATURALS;
    return (n & n >> 1 & n >> 2 & n >> 3 & RANK_UNITS) || (n & n >> 4 & n >> 8 & n >> 12 & n >> 16);
}

/* Four of a kinds by rank, then straight flushes by suit, lowest rank, top rank. */
static int add_bombs(PyObject *out, mask_t mask, const struct table *t)
{
    if (!may_hold_bomb(mask))
        return 0;
    for (long rank = 2; rank <= ACE; rank++)
        if (NIBBLE(mask, rank) == 15 && bomb_beats(FOUR_BOMB, 4, rank, t)
            && emit(out, FOUR_BOMB, rank, (mask_t)15 << SHIFT(rank), 4, 0))
            return -1;
    for (int s = 0; s < 4; s++) {
        mask_t suited = mask >> s & RANK_UNITS;
        for (long low = 2; low <= ACE - 4; low++) {
            long high = low;
            while (high + 1 <= ACE && (suited >> SHIFT(high + 1) & 1))
                high++;
            if (!(suited >> SHIFT(low) & 1))
                continue;
            for (long top = low + 4; top <= high; top++) {
                if (!bomb_beats(STRAIGHT_FLUSH, top - low + 1, top, t))
                    continue;
                mask_t cards = 0;
                for (long r = low; r <= top; r++)
                    cards |= 1ULL << (SHIFT(r) + s);
                if (emit(out, STRAIGHT_FLUSH, top, cards, top - low + 1, 0))
                    return -1;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ the module's functions */

static int read_mask(PyObject *value, mask_t *mask)
{
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a hand mask is an int");
        return -1;
    }
    unsigned long long m = PyLong_AsUnsignedLongLong(value);
    if (m == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        m = MASK_LIMIT;
    }
    if (m >= MASK_LIMIT) {
        PyErr_SetString(PyExc_ValueError, "a hand mask is an int from 0 to 2**56 - 1");
        return -1;
    }
    *mask = m;
    return 0;
}

static int check_configured(void)
{
    if (!configured)
        PyErr_SetString(PyExc_RuntimeError, "bswtichu.engine._combos_accel is not configured");
    return configured ? 0 : -1;
}

static int check_arguments(const char *name, Py_ssize_t given, Py_ssize_t wanted)
{
    if (given != wanted) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, wanted, given);
        return -1;
    }
    return check_configured();
}

/* Every combination of `mask` that may go onto the table `t` (leads when it is empty). */
static PyObject *list_plays(mask_t mask, const struct table *t)
{
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    int failed = 0;
    if (t->empty) {
        failed = add_singles(out, mask, t) || add_sets(out, mask, 2, 2) || add_sets(out, mask, 3, 2)
                 || add_full_houses(out, mask, 2) || add_straights(out, mask, 0, 1)
                 || add_stairs(out, mask, 0, 2);
    }
    else {
        switch (t->kind) {
        case SINGLE: failed = add_singles(out, mask, t); break;
        case PAIR: failed = add_sets(out, mask, 2, t->least); break;
        case TRIPLE: failed = add_sets(out, mask, 3, t->least); break;
        case FULL_HOUSE: failed = add_full_houses(out, mask, t->least); break;
        case STRAIGHT: failed = add_straights(out, mask, t->length, t->least); break;
        case STAIRS: failed = add_stairs(out, mask, t->length / 2, t->least); break;
        case DOG: return out;  /* nothing goes onto the Dog, not even a bomb */
        default: break;
        }
    }
    if (failed || add_bombs(out, mask, t)) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PyObject *play_list(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    mask_t mask;
    struct table t;
    if (check_arguments("play_list", nargs, 2))
        return NULL;
    if (PyLong_Check(args[0])) {
        if (read_mask(args[0], &mask))
            return NULL;
    }
    else {  /* a HandIndex: its mask */
        PyObject *hand_mask = PyObject_GetAttrString(args[0], "mask");
        int failed = hand_mask == NULL || read_mask(hand_mask, &mask);
        Py_XDECREF(hand_mask);
        if (failed)
            return NULL;
    }
    if (read_table(args[1], &t))
        return NULL;
    return list_plays(mask, &t);
}

static PyObject *bombs(PyObject *module, PyObject *arg)
{
    mask_t mask;
    struct table none = {1, SINGLE, 0, 0, 1};
    if (check_configured() || read_mask(arg, &mask))
        return NULL;
    PyObject *out = PyList_New(0);
    if (out != NULL && add_bombs(out, mask, &none))
        Py_CLEAR(out);
    return out;
}

static PyObject *mask_of(PyObject *module, PyObject *cards)
{
    if (check_configured())
        return NULL;
    PyObject *items = PySequence_Fast(cards, "mask_of needs an iterable of cards");
    if (items == NULL)
        return NULL;
    mask_t mask = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    PyObject **item = PySequence_Fast_ITEMS(items);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *bit = Py_IS_TYPE(item[i], card_class) ? SLOT(item[i], card_bit_at) : NULL;
        unsigned long long value = bit && PyLong_CheckExact(bit) ? PyLong_AsUnsignedLongLong(bit) : MASK_LIMIT;
        if (value >= MASK_LIMIT) {  /* not a card: as the pure version, ask for .bit (and fail as it does) */
            PyErr_Clear();
            bit = PyObject_GetAttrString(item[i], "bit");
            PyObject *merged = NULL;
            if (bit != NULL) {
                PyObject *so_far = PyLong_FromUnsignedLongLong(mask);
                merged = so_far ? PyNumber_Or(so_far, bit) : NULL;
                Py_XDECREF(so_far);
                Py_DECREF(bit);
            }
            if (merged == NULL || read_mask(merged, &mask)) {
                Py_XDECREF(merged);
                Py_DECREF(items);
                return NULL;
            }
            Py_DECREF(merged);
            continue;
        }
        mask |= value;
    }
    Py_DECREF(items);
    return PyLong_FromUnsignedLongLong(mask);
}

/* The cards of a mask; in print order (the Dog, the Mahjong, the natural cards, the
 * Phoenix, the Dragon: cards.sort_cards) if `print_order`, else by index. */
static PyObject *cards_in(PyObject *arg, int print_order)
{
    mask_t mask;
    if (check_configured() || read_mask(arg, &mask))
        return NULL;
    static const int print_sequence[56] = {
        53, 52, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
        49, 50, 51, 54, 55};
    PyObject *out = PyList_New(__builtin_popcountll(mask));
    if (out == NULL)
        return NULL;
    Py_ssize_t n = 0;
    for (int i = 0; i < 56; i++) {
        int index = print_order ? print_sequence[i] : i;
        if (mask >> index & 1)
            PyList_SET_ITEM(out, n++, Py_NewRef(deck[index]));
    }
    return out;
}

static PyObject *cards_of(PyObject *module, PyObject *arg)
{
    return cards_in(arg, 0);
}

static PyObject *sorted_cards_of(PyObject *module, PyObject *arg)
{
    return cards_in(arg, 1);
}

/* Append the listed Play of each combination of the list `combos` by `seat`. */
static int append_plays(PyObject *out, PyObject *seat, PyObject *combos)
{
    Py_ssize_t n = PyList_GET_SIZE(combos);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *combo = PyList_GET_ITEM(combos, i);
        PyObject *phoenix_as = Py_IS_TYPE(combo, combo_class) ? SLOT(combo, combo_phoenix_at) : NULL;
        if (phoenix_as == NULL) {
            PyErr_SetString(PyExc_TypeError, "plays_of needs complete combos");
            return -1;
        }
        PyObject *play = play_class->tp_alloc(play_class, 0);
        if (play == NULL)
            return -1;
        SLOT(play, play_seat_at) = Py_NewRef(seat);
        SLOT(play, play_phoenix_at) = Py_NewRef(phoenix_as);
        SLOT(play, play_combo_at) = Py_NewRef(combo);
        int failed = PyList_Append(out, play);
        Py_DECREF(play);
        if (failed)
            return -1;
    }
    return 0;
}

static PyObject *plays_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (check_arguments("plays_of", nargs, 2))
        return NULL;
    PyObject *seat = args[0], *combos = args[1];
    if (!PyLong_CheckExact(seat) || !PyList_CheckExact(combos)) {
        PyErr_SetString(PyExc_TypeError, "plays_of(seat: int, combos: list)");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out != NULL && append_plays(out, seat, combos))
        Py_CLEAR(out);
    return out;
}

/* ------------------------------------------------------------------ the round's hot paths
 *
 * round.py's `Round.iter_legal_actions` and `Round.apply` for a round's
 * commonest steps, reading and writing the round's own fields (its instance
 * dict).  Every state or action these do not recognise completely (the
 * exchange's lists, a bomb, a typed play, a field of an unexpected type, an
 * action that would be refused or end the round, ...) is handed to the pure
 * Python methods, the reference, unchanged: so these never refuse anything
 * themselves and every message stays the Python one.
 */

static PyTypeObject *round_class, *hand_index_class;
static Py_ssize_t index_mask_at, index_phoenix_at, index_counts_at, index_bombs_at, index_ranks_at;
static PyObject *play_phase, *grand_phase, *exchange_phase;  /* "play", "grand", "exchange" */
static PyObject *call_tichu[4], *pass_action[4], *wishes[4], *gifts[4], *grand_choices[4];  /* shared actions */
static PyObject *pure_legal_name, *pure_apply_name;
static PyObject *name_grand_decided, *name_ending, *name_phase, *name_calls, *name_played_any, *name_gift_pending_seat,
    *name_wish_pending_seat, *name_finish_order, *name_trick_won, *name_top, *name_top_seat, *name_turn,
    *name_hands, *name_indexes, *name_wish;

/* A field of the round: borrowed, or NULL (no error set) where it is missing. */
static PyObject *field(PyObject *fields, PyObject *name)
{
    return PyDict_GetItemWithError(fields, name);
}

/* None (-1) or an int 0..15 in *out: 0; anything else: -1. */
static int small_or_none(PyObject *value, long *out)
{
    if (value == Py_None) {
        *out = -1;
        return 0;
    }
    if (value == NULL || !PyLong_CheckExact(value))
        return -1;
    long v = PyLong_AsLong(value);
    if (v < 0 || v > 15) {
        PyErr_Clear();
        return -1;
    }
    *out = v;
    return 0;
}

/* True or False in *out: 0; anything else: -1. */
static int flag(PyObject *value, int *out)
{
    if (value != Py_True && value != Py_False)
        return -1;
    *out = value == Py_True;
    return 0;
}

/* The fields the hot paths read, checked; read a group at a time, as needed
 * (each dict look-up costs: three seats of four only need the first group). */
struct round_state {
    PyObject *fields;   /* the instance dict (a new reference) */
    long turn, top_seat, wish, wish_pending, gift_pending;
    int trick_won;
    unsigned out_seats; /* bit per seat in finish_order */
    Py_ssize_t out_count;
    PyObject *top;      /* borrowed: None or a Combo */
    PyObject *hands, *indexes, *calls, *played_any, *finish_order;
};

/* Read the fields every path of the play phase needs: 1 if read, 2 in the Grand
 * Tichu phase, 3 in the exchange, 0 if the state is not one the hot paths know
 * (the round over, an odd field; then the pure methods decide), -1 on an error. */
static int read_round(PyObject *rnd, struct round_state *st)
{
    st->fields = NULL;
    st->top_seat = st->wish = -2;  /* not read yet */
    st->hands = st->indexes = st->calls = st->played_any = NULL;
    if (!Py_IS_TYPE(rnd, round_class))
        return 0;
    PyObject *fields = PyObject_GenericGetDict(rnd, NULL);
    if (fields == NULL)
        return -1;
    st->fields = fields;
    PyObject *phase = field(fields, name_phase);
    if (phase != play_phase) {  /* the phases are interned strings in round.py */
        if (phase == grand_phase)
            return 2;
        if (phase == exchange_phase)
            return 3;
        return PyErr_Occurred() ? -1 : 0;
    }
    if (small_or_none(field(fields, name_wish_pending_seat), &st->wish_pending)
        || small_or_none(field(fields, name_gift_pending_seat), &st->gift_pending)
        || st->wish_pending > 3 || st->gift_pending > 3)
        return PyErr_Occurred() ? -1 : 0;
    st->top = field(fields, name_top);
    PyObject *finish_order = st->finish_order = field(fields, name_finish_order);
    if (small_or_none(field(fields, name_turn), &st->turn) || flag(field(fields, name_trick_won), &st->trick_won)
        || st->top == NULL || (st->top != Py_None && !Py_IS_TYPE(st->top, combo_class))
        || finish_order == NULL || !PyList_CheckExact(finish_order))
        return PyErr_Occurred() ? -1 : 0;
    st->out_seats = 0;
    st->out_count = PyList_GET_SIZE(finish_order);
    for (Py_ssize_t i = 0; i < st->out_count; i++) {
        long s;
        if (small_or_none(PyList_GET_ITEM(finish_order, i), &s) || s < 0 || s > 3)
            return PyErr_Occurred() ? -1 : 0;
        st->out_seats |= 1u << s;
    }
    return 1;
}

/* The trick's owner (`top_seat`): 1 if read (0..3), else as read_round. */
static int read_top_seat(struct round_state *st)
{
    if (st->top_seat == -2 && small_or_none(field(st->fields, name_top_seat), &st->top_seat))
        st->top_seat = -3;
    return st->top_seat >= 0 ? 1 : PyErr_Occurred() ? -1 : 0;
}

/* The wish (-1: none, else 2..14): 1 if read, else as read_round. */
static int read_wish(struct round_state *st)
{
    if (st->wish == -2 && (small_or_none(field(st->fields, name_wish), &st->wish)
                           || (st->wish != -1 && (st->wish < 2 || st->wish > ACE))))
        st->wish = -3;
    return st->wish >= -1 ? 1 : PyErr_Occurred() ? -1 : 0;
}

/* A list of the four seats' values, borrowed, or NULL (no error set: then the pure methods decide). */
static PyObject *seat_list(struct round_state *st, PyObject *name)
{
    PyObject *list = field(st->fields, name);
    return list != NULL && PyList_CheckExact(list) && PyList_GET_SIZE(list) == 4 ? list : NULL;
}

/* The hands and their kept indexes, with `seat`'s hand a set: 1 if read, else as read_round. */
static int read_hands(struct round_state *st, long seat)
{
    if (st->hands == NULL) {
        st->hands = seat_list(st, name_hands);
        st->indexes = st->hands ? seat_list(st, name_indexes) : NULL;
    }
    return st->indexes != NULL && PySet_CheckExact(PyList_GET_ITEM(st->hands, seat)) ? 1 : PyErr_Occurred() ? -1 : 0;
}

/* round.next_active: the next seat after `seat` still in the round. */
static long next_active(const struct round_state *st, long seat)
{
    for (int step = 1; step <= 4; step++) {
        long s = (seat + step) % 4;
        if (!(st->out_seats >> s & 1))
            return s;
    }
    return -1;
}

/* round.leader while the trick is won: its owner, or the next seat in after him. */
static long leader_of(const struct round_state *st)
{
    return st->out_seats >> st->top_seat & 1 ? next_active(st, st->top_seat) : st->top_seat;
}

/* The mask a kept HandIndex holds: 0, or -2 (no error set) if it is not one with a
 * valid mask (then the pure methods decide). */
static int index_mask(PyObject *index, mask_t *mask)
{
    PyObject *value = Py_IS_TYPE(index, hand_index_class) ? SLOT(index, index_mask_at) : NULL;
    if (value == NULL || read_mask(value, mask)) {
        PyErr_Clear();
        return -2;
    }
    return 0;
}

/* The mask of the set of cards `hand`: 0, -1 on an error, or -2 (no error set) if it
 * holds anything but cards (then the pure methods decide). */
static int mask_of_set(PyObject *hand, mask_t *mask)
{
    PyObject *cards = PyObject_GetIter(hand), *card;
    *mask = 0;
    if (cards == NULL)
        return -1;
    while ((card = PyIter_Next(cards)) != NULL) {
        PyObject *bit = Py_IS_TYPE(card, card_class) ? SLOT(card, card_bit_at) : NULL;
        mask_t value;
        int odd = bit == NULL || read_mask(bit, &value);
        Py_DECREF(card);
        if (odd) {
            PyErr_Clear();
            Py_DECREF(cards);
            return -2;
        }
        *mask |= value;
    }
    Py_DECREF(cards);
    return PyErr_Occurred() ? -1 : 0;
}

/* The mask of `seat`'s hand, from the round's kept HandIndex; where there is none
 * for this hand, one is made and kept as Round._index does. 0 on success, -1 on an
 * error, -2 if the hand holds anything but cards. */
static int hand_mask(const struct round_state *st, long seat, mask_t *mask)
{
    PyObject *hand = PyList_GET_ITEM(st->hands, seat), *entry = PyList_GET_ITEM(st->indexes, seat);
    if (PyTuple_CheckExact(entry) && PyTuple_GET_SIZE(entry) == 2 && PyTuple_GET_ITEM(entry, 0) == hand)
        return index_mask(PyTuple_GET_ITEM(entry, 1), mask);
    int odd = mask_of_set(hand, mask);
    if (odd)
        return odd;
    PyObject *index = hand_index_class->tp_alloc(hand_index_class, 0);  /* HandIndex(hand) */
    PyObject *mask_obj = PyLong_FromUnsignedLongLong(*mask);
    if (index == NULL || mask_obj == NULL) {
        Py_XDECREF(index);
        Py_XDECREF(mask_obj);
        return -1;
    }
    SLOT(index, index_mask_at) = mask_obj;
    SLOT(index, index_phoenix_at) = Py_NewRef(*mask & PH_BIT ? Py_True : Py_False);
    SLOT(index, index_counts_at) = Py_NewRef(Py_None);
    SLOT(index, index_bombs_at) = Py_NewRef(Py_None);
    SLOT(index, index_ranks_at) = Py_NewRef(Py_None);
    entry = PyTuple_Pack(2, hand, index);
    Py_DECREF(index);
    return entry == NULL ? -1 : PyList_SetItem(st->indexes, seat, entry);
}

static mask_t combo_mask(PyObject *combo)
{
    PyObject *value = SLOT(combo, combo_mask_at);
    mask_t mask;
    if (value == NULL || read_mask(value, &mask)) {
        PyErr_Clear();
        return 0;
    }
    return mask;
}

static int is_bomb_combo(PyObject *combo)
{
    PyObject *kind = SLOT(combo, combo_type_at);
    return kind == kinds[FOUR_BOMB] || kind == kinds[STRAIGHT_FLUSH];
}

/* The combinations of the list holding a natural card of `rank` (and bombs if `bombs`). */
static PyObject *with_rank(PyObject *combos, long rank, int bombs)
{
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(combos); i++) {
        PyObject *combo = PyList_GET_ITEM(combos, i);
        if (((bombs && is_bomb_combo(combo)) || NIBBLE(combo_mask(combo), rank)) && PyList_Append(out, combo)) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* Extend `out` by the items of a tuple. */
static int extend_by(PyObject *out, PyObject *items)
{
    Py_ssize_t end = PyList_GET_SIZE(out);
    return PyList_SetSlice(out, end, end, items);
}

/* Whether `seat` has called nothing: 1 or 0, -1 if its call is not None or a str. */
static int uncalled(struct round_state *st, long seat)
{
    PyObject *called = PyList_GET_ITEM(st->calls, seat);
    if (called == Py_None)
        return 1;
    return PyUnicode_CheckExact(called) ? PyUnicode_GET_LENGTH(called) == 0 : -1;
}

/* The play phase's legal actions of `seat` into `out`: 1 when done, 0 when the state is
 * one for the pure method, -1 on an error.  The order of round.iter_legal_actions. */
static int legal_in_play(struct round_state *st, PyObject *seat_obj, long seat, PyObject *out)
{
    int ending = 0;
    st->calls = seat_list(st, name_calls);
    st->played_any = st->calls ? seat_list(st, name_played_any) : NULL;
    if (st->played_any == NULL || (st->gift_pending >= 0 && flag(field(st->fields, name_ending), &ending)))
        return PyErr_Occurred() ? -1 : 0;
    PyObject *played = PyList_GET_ITEM(st->played_any, seat);
    int free = uncalled(st, seat);
    if (free < 0 || (played != Py_True && played != Py_False))
        return 0;
    if (free && played == Py_False && (st->gift_pending < 0 || !ending) && PyList_Append(out, call_tichu[seat]))
        return -1;
    if (st->wish_pending >= 0)  /* only the Mahjong's player acts: his wish */
        return seat == st->wish_pending && extend_by(out, wishes[seat]) ? -1 : 1;
    if (st->gift_pending >= 0 && seat == st->gift_pending && extend_by(out, gifts[seat]))
        return -1;
    if (st->gift_pending >= 0 && ending)
        return 1;
    if (st->out_seats >> seat & 1)
        return 1;
    int leads = 0, follows = 0;
    if (st->gift_pending >= 0)
        ;  /* while the Dragon trick waits to be given: bombs onto it */
    else if (st->trick_won) {
        int known = read_top_seat(st);
        if (known != 1 || st->top == Py_None)
            return known;
        if (seat == leader_of(st)) {
            if (seat != st->top_seat)
                return 0;  /* he leads after an out winner's trick: his bombs go onto it */
            leads = 1;
        }
    }
    else if (st->top == Py_None) {
        if (seat != st->turn)
            return 1;
        leads = 1;
    }
    else if (seat == st->turn)
        follows = 1;
    mask_t mask;
    int known = read_hands(st, seat);
    if (known != 1)
        return known;
    if ((known = hand_mask(st, seat, &mask)) != 0)
        return known == -2 ? 0 : -1;
    struct table t;
    if (leads)
        t.empty = 1, t.least = 1, t.rank = 0, t.length = 0, t.kind = SINGLE;
    else if (read_table(st->top, &t))
        return -1;
    if (!leads && !follows) {  /* out of turn: the bombs that beat the table */
        if (!may_hold_bomb(mask) || t.kind == DOG)
            return 1;
        PyObject *found = PyList_New(0);
        if (found == NULL)
            return -1;
        int failed = add_bombs(found, mask, &t) || append_plays(out, seat_obj, found);
        Py_DECREF(found);
        return failed ? -1 : 1;
    }
    if ((known = read_wish(st)) != 1)
        return known;
    PyObject *options = list_plays(mask, &t);
    if (options == NULL)
        return -1;
    int binds = st->wish >= 0 && NIBBLE(mask, st->wish);
    if (binds && follows) {  /* the wish binds if a play with it beats the table (R8.1.3) */
        binds = 0;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(options) && !binds; i++)
            binds = NIBBLE(combo_mask(PyList_GET_ITEM(options, i)), st->wish) != 0;
    }
    if (binds)
        Py_SETREF(options, with_rank(options, st->wish, follows));
    int failed = options == NULL || (follows && !binds && PyList_Append(out, pass_action[seat]))
                 || append_plays(out, seat_obj, options);
    Py_XDECREF(options);
    return failed ? -1 : 1;
}

/* The Grand Tichu phase: the two choices, or Tichu once decided if nothing was called. */
static int legal_in_grand(struct round_state *st, long seat, PyObject *out)
{
    PyObject *decided = seat_list(st, name_grand_decided);
    st->calls = decided ? seat_list(st, name_calls) : NULL;
    if (st->calls == NULL)
        return PyErr_Occurred() ? -1 : 0;
    PyObject *done = PyList_GET_ITEM(decided, seat);
    int free = uncalled(st, seat);
    if (free < 0 || (done != Py_True && done != Py_False))
        return 0;
    if (done == Py_False)
        return extend_by(out, grand_choices[seat]) ? -1 : 1;
    return free && PyList_Append(out, call_tichu[seat]) ? -1 : 1;
}

/* Round.iter_legal_actions(seat), compiled: the pure method for what it does not know. */
static PyObject *round_legal(PyObject *rnd, PyObject *const *args, Py_ssize_t nargs)
{
    if (check_arguments("iter_legal_actions", nargs, 1))
        return NULL;
    PyObject *seat_obj = args[0];
    struct round_state st;
    int known = 0;
    long seat = -1;
    st.fields = NULL;
    if (round_class != NULL && PyLong_CheckExact(seat_obj)) {
        seat = PyLong_AsLong(seat_obj);
        if (seat < 0 || seat > 3)
            PyErr_Clear();
        else
            known = read_round(rnd, &st);
    }
    PyObject *out = NULL;
    if (known >= 1) {
        out = PyList_New(0);
        known = out == NULL ? -1 : known == 2 ? legal_in_grand(&st, seat, out)
                : known == 1 ? legal_in_play(&st, seat_obj, seat, out) : 0;  /* the exchange's are many: lazy */
    }
    Py_XDECREF(st.fields);
    if (known == 1) {
        PyObject *found = PyObject_GetIter(out);
        Py_DECREF(out);
        return found;
    }
    Py_XDECREF(out);
    if (known < 0)
        return NULL;
    return PyObject_CallMethodOneArg(rnd, pure_legal_name, seat_obj);
}

/* ------------------------------------------------------------------ applying */

static PyTypeObject *pass_class, *played_class, *collected_class, *fulfilled_class, *out_class;
static PyTypeObject *wish_class, *tichu_class, *give_class, *wish_made_class, *given_class;
static Py_ssize_t pass_seat_at, card_points_at, wish_seat_at, wish_rank_at, tichu_seat_at, give_seat_at, give_to_at;
static PyObject *to_wish[4], *tichu_called[4], *tichu_text;
static PyTypeObject *call_grand_class, *decline_grand_class, *exchange_class, *dealt_class;
static Py_ssize_t call_grand_seat_at, decline_grand_seat_at, exchange_seat_at, exchange_cards_at;
static PyObject *grand_decided_event[4][2], *grand_called[4], *grand_text, *exchange_started, *exchange_submitted[4];
static PyObject *name_deal, *name_exchanges, *name_cards;
static PyObject *passed_event[4], *trick_won_event[4][4], *to_follow[4], *to_lead[4], *to_give[4];
static PyObject *empty_args;
static PyObject *name_history, *name_passed, *name_trick, *name_trick_cards, *name_loose_cards, *name_piles,
    *name_place, *name_seat, *name_combo, *name_out_of_turn, *name_cards_left, *name_rank, *name_winner, *name_to,
    *name_points;

static PyObject *seat_int(long seat)
{
    return PyLong_FromLong(seat);
}

/* A new frozen event of `cls` with its fields filled in its __dict__, as the
 * hand-written constructors of events.py do. */
static PyObject *new_event(PyTypeObject *cls, int n, PyObject **names, PyObject **values)
{
    PyObject *event = PyBaseObject_Type.tp_new(cls, empty_args, NULL);
    if (event == NULL)
        return NULL;
    PyObject *fields = PyObject_GenericGetDict(event, NULL);
    int failed = fields == NULL;
    for (int i = 0; i < n && !failed; i++)
        failed = values[i] == NULL || PyDict_SetItem(fields, names[i], values[i]);
    Py_XDECREF(fields);
    if (failed)
        Py_CLEAR(event);
    return event;
}

static int set_field(PyObject *fields, PyObject *name, PyObject *value)
{
    if (value == NULL)
        return -1;
    int failed = PyDict_SetItem(fields, name, value);
    Py_DECREF(value);
    return failed;
}

static int append_new(PyObject *list, PyObject *item)
{
    if (item == NULL)
        return -1;
    int failed = PyList_Append(list, item);
    Py_DECREF(item);
    return failed;
}

/* Round.wish_binds for `seat` at its turn to follow: 1 if the wish binds (he holds its
 * rank and a play with it beats the table), 0 if not, -1 on an error, -2 if the
 * fields are not as expected. */
static int wish_binds(struct round_state *st, long seat)
{
    mask_t mask;
    struct table t;
    int known = read_hands(st, seat);
    if (known != 1)
        return known == 0 ? -2 : -1;
    if ((known = hand_mask(st, seat, &mask)) != 0)
        return known;
    if (!NIBBLE(mask, st->wish))
        return 0;
    if (read_table(st->top, &t))
        return -1;
    PyObject *options = list_plays(mask, &t);
    if (options == NULL)
        return -1;
    int binds = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(options) && !binds; i++)
        binds = NIBBLE(combo_mask(PyList_GET_ITEM(options, i)), st->wish) != 0;
    Py_DECREF(options);
    return binds;
}

/* A new list of the n objects given (new references). */
static PyObject *new_list(Py_ssize_t n, ...)
{
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    va_list items;
    va_start(items, n);
    for (Py_ssize_t i = 0; i < n; i++)
        PyList_SET_ITEM(out, i, Py_NewRef(va_arg(items, PyObject *)));
    va_end(items);
    return out;
}

/* Round._do_pass for a pass at its turn while nobody waits and no wish stands. */
static PyObject *apply_pass(PyObject *action, struct round_state *st, long seat)
{
    if (seat != st->turn || st->top == Py_None || st->trick_won || (st->out_seats >> seat & 1)
        || st->wish_pending >= 0 || st->gift_pending >= 0)
        return Py_NewRef(Py_NotImplemented);
    int known = read_wish(st);
    if (known == 1)
        known = read_top_seat(st);
    if (known == 1 && st->wish >= 0) {  /* a binding wish: the pure checks refuse the pass */
        int binds = wish_binds(st, seat);
        known = binds == 0 ? 1 : binds == -1 ? -1 : 0;
    }
    if (known != 1)
        return known < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    PyObject *fields = st->fields;
    PyObject *history = field(fields, name_history), *passed = field(fields, name_passed);
    if (history == NULL || !PyList_CheckExact(history) || passed == NULL || !PySet_CheckExact(passed))
        return Py_NewRef(Py_NotImplemented);
    PyObject *seat_obj = seat_int(seat);
    if (seat_obj == NULL || PyList_Append(history, action) || PySet_Add(passed, seat_obj)) {
        Py_XDECREF(seat_obj);
        return NULL;
    }
    Py_DECREF(seat_obj);
    long top_seat = st->top_seat;
    if (PySet_GET_SIZE(passed) >= 3 - st->out_count + (st->out_seats >> top_seat & 1)) {
        long leader = leader_of(st);
        int dragon = combo_mask(st->top) == DR_BIT;
        if (PyDict_SetItem(fields, name_trick_won, Py_True) || set_field(fields, name_turn, seat_int(leader))
            || (dragon && set_field(fields, name_gift_pending_seat, seat_int(top_seat))))
            return NULL;
        return new_list(3, passed_event[seat], trick_won_event[top_seat][leader],
                           dragon ? to_give[top_seat] : to_lead[leader]);
    }
    long turn = next_active(st, seat);
    if (set_field(fields, name_turn, seat_int(turn)))
        return NULL;
    return new_list(2, passed_event[seat], to_follow[turn]);
}

/* Round._collect to `receiver` (the winner, or the Dragon gift's receiver), its event
 * appended to `events`; the caller resets the table. */
static int collect(PyObject *fields, const struct round_state *st, long receiver, PyObject *events)
{
    PyObject *trick_cards = field(fields, name_trick_cards), *loose = field(fields, name_loose_cards);
    PyObject *piles = field(fields, name_piles);
    PyObject *pile = PyList_GET_ITEM(piles, receiver);
    long points = 0;
    PyObject *parts[2] = {trick_cards, loose};
    for (int p = 0; p < 2; p++)
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(parts[p]); i++) {
            PyObject *card = PyList_GET_ITEM(parts[p], i);
            long value = PyLong_AsLong(SLOT(card, card_points_at));
            if (value == -1 && PyErr_Occurred())
                return -1;
            points += value;
            if (PyList_Append(pile, card))
                return -1;
        }
    PyObject *winner = seat_int(st->top_seat), *to = seat_int(receiver), *points_obj = PyLong_FromLong(points);
    PyObject *names[3] = {name_winner, name_to, name_points}, *values[3] = {winner, to, points_obj};
    int failed = append_new(events, new_event(collected_class, 3, names, values))
                 || set_field(fields, name_trick, PyList_New(0)) || set_field(fields, name_trick_cards, PyList_New(0))
                 || set_field(fields, name_loose_cards, PyList_New(0));
    Py_XDECREF(winner);
    Py_XDECREF(to);
    Py_XDECREF(points_obj);
    return failed;
}

/* Round._do_play for a listed play (its combination known) that is a lead by the seat
 * whose lead it is, or a follow at its turn beating the table, neither a bomb, neither
 * with the Mahjong or the Dog, nor ending the round; and the wish, if any, fulfilled
 * or not binding. */
static PyObject *apply_play(PyObject *action, struct round_state *st, long seat)
{
    PyObject *combo = SLOT(action, play_combo_at);
    if (combo == NULL || !Py_IS_TYPE(combo, combo_class) || (st->out_seats >> seat & 1) || is_bomb_combo(combo)
        || st->wish_pending >= 0 || st->gift_pending >= 0)
        return Py_NewRef(Py_NotImplemented);
    int known = read_hands(st, seat);
    if (known == 1)
        known = read_wish(st);
    if (known == 1 && st->trick_won)
        known = read_top_seat(st);
    if (known == 1) {
        st->played_any = seat_list(st, name_played_any);
        known = st->played_any != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
    }
    if (known != 1)
        return known < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    PyObject *fields = st->fields;
    PyObject *hand = PyList_GET_ITEM(st->hands, seat), *entry = PyList_GET_ITEM(st->indexes, seat);
    mask_t held, mask = combo_mask(combo);
    if (PyTuple_CheckExact(entry) && PyTuple_GET_SIZE(entry) == 2 && PyTuple_GET_ITEM(entry, 0) == hand) {
        if (index_mask(PyTuple_GET_ITEM(entry, 1), &held))
            return Py_NewRef(Py_NotImplemented);
    }
    else {  /* no index kept for this hand: its mask, as _do_play reads it */
        int odd = mask_of_set(hand, &held);
        if (odd)
            return odd == -1 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    int failed;
    PyObject *kind = SLOT(combo, combo_type_at), *length_obj = SLOT(combo, combo_length_at);
    long length = length_obj && PyLong_CheckExact(length_obj) ? PyLong_AsLong(length_obj) : -1;
    if (mask == 0 || (mask & ~held) || length <= 0
        || PySet_GET_SIZE(hand) < length || __builtin_popcountll(mask) != length)
        return Py_NewRef(Py_NotImplemented);
    int goes_out = PySet_GET_SIZE(hand) == length;
    if (goes_out && st->out_count && (st->out_count > 1 || (st->out_seats & 5 ? 0 : 1) == seat % 2))
        return Py_NewRef(Py_NotImplemented);  /* the round ends (R10.7): the pure methods settle it */
    int leads;
    if (st->trick_won) {
        if (seat != st->top_seat || seat != leader_of(st))
            return Py_NewRef(Py_NotImplemented);
        leads = 1;
    }
    else if (st->top == Py_None) {
        if (seat != st->turn)
            return Py_NewRef(Py_NotImplemented);
        leads = 1;
    }
    else {
        if (seat != st->turn || mask == PH_BIT)
            return Py_NewRef(Py_NotImplemented);
        leads = 0;
        PyObject *top = st->top;  /* Combo.beats for two plays that are not bombs */
        PyObject *top_kind = SLOT(top, combo_type_at), *top_length = SLOT(top, combo_length_at);
        if (top_kind != kind || top_kind == kinds[DOG] || top_length == NULL
            || PyObject_RichCompareBool(top_length, length_obj, Py_EQ) != 1)
            return Py_NewRef(Py_NotImplemented);
        double rank = PyFloat_AsDouble(SLOT(combo, combo_rank_at)), top_rank = PyFloat_AsDouble(SLOT(top, combo_rank_at));
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return Py_NewRef(Py_NotImplemented);
        }
        if (!(rank > top_rank))
            return Py_NewRef(Py_NotImplemented);
    }
    if (mask == PH_BIT && combo != phoenix_lead)
        return Py_NewRef(Py_NotImplemented);  /* a led Phoenix takes the lead's value */
    int fulfils = st->wish >= 0 && NIBBLE(mask, st->wish);
    if (st->wish >= 0 && !fulfils && NIBBLE(held, st->wish)) {  /* he holds the wished rank */
        int binds = leads ? 1 : wish_binds(st, seat);
        if (binds != 0)  /* it binds: the pure checks refuse the play */
            return binds == -1 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *history = field(fields, name_history), *trick = field(fields, name_trick);
    PyObject *trick_cards = field(fields, name_trick_cards), *loose = field(fields, name_loose_cards);
    PyObject *piles = field(fields, name_piles);
    if (history == NULL || !PyList_CheckExact(history) || trick == NULL || !PyList_CheckExact(trick)
        || trick_cards == NULL || !PyList_CheckExact(trick_cards) || loose == NULL || !PyList_CheckExact(loose)
        || piles == NULL || !PyList_CheckExact(piles) || PyList_GET_SIZE(piles) != 4
        || !PyList_CheckExact(PyList_GET_ITEM(piles, st->top_seat < 0 ? 0 : st->top_seat)))
        return Py_NewRef(Py_NotImplemented);
    for (Py_ssize_t p = 0; p < 2; p++) {
        PyObject *part = p ? loose : trick_cards;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(part); i++)
            if (!Py_IS_TYPE(PyList_GET_ITEM(part, i), card_class))
                return Py_NewRef(Py_NotImplemented);
    }
    /* Everything is checked: from here on the state changes as the pure methods change it. */
    PyObject *events = PyList_New(0);
    if (events == NULL)
        return NULL;
    if (leads && st->trick_won && collect(fields, st, st->top_seat, events))
        goto error;
    trick = field(fields, name_trick);
    trick_cards = field(fields, name_trick_cards);
    PyObject *cards = cards_in(SLOT(combo, combo_mask_at), 1);
    if (cards == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cards); i++)
        if (PySet_Discard(hand, PyList_GET_ITEM(cards, i)) < 0) {
            Py_DECREF(cards);
            goto error;
        }
    PyObject *seat_obj = seat_int(seat);
    PyObject *placed = seat_obj ? PyTuple_Pack(2, seat_obj, combo) : NULL;
    Py_ssize_t extended = trick_cards ? PyList_GET_SIZE(trick_cards) : 0;
    failed = placed == NULL || PyList_Append(history, action)
             || PyList_SetItem(st->indexes, seat, Py_NewRef(Py_None))
             || PyList_SetItem(st->played_any, seat, Py_NewRef(Py_True))
             || PyList_Append(trick, placed)
             || PyList_SetSlice(trick_cards, extended, extended, cards)
             || PyDict_SetItem(fields, name_top, combo) || PyDict_SetItem(fields, name_top_seat, seat_obj)
             || set_field(fields, name_passed, PySet_New(NULL))
             || PyDict_SetItem(fields, name_trick_won, Py_False)
             || PyDict_SetItem(fields, name_gift_pending_seat, Py_None);
    Py_DECREF(cards);
    Py_XDECREF(placed);
    if (!failed) {
        PyObject *left = PyLong_FromSsize_t(PySet_GET_SIZE(hand));
        PyObject *names[4] = {name_seat, name_combo, name_out_of_turn, name_cards_left};
        PyObject *values[4] = {seat_obj, combo, Py_False, left};
        failed = append_new(events, new_event(played_class, 4, names, values));
        Py_XDECREF(left);
    }
    if (!failed && fulfils) {
        PyObject *wish = PyLong_FromLong(st->wish);
        PyObject *names[2] = {name_seat, name_rank}, *values[2] = {seat_obj, wish};
        failed = append_new(events, new_event(fulfilled_class, 2, names, values))
                 || PyDict_SetItem(fields, name_wish, Py_None);
        Py_XDECREF(wish);
    }
    if (!failed && goes_out) {
        PyObject *place = PyLong_FromSsize_t(st->out_count + 1);
        PyObject *names[2] = {name_seat, name_place}, *values[2] = {seat_obj, place};
        failed = PyList_Append(st->finish_order, seat_obj) || append_new(events, new_event(out_class, 2, names, values));
        Py_XDECREF(place);
        st->out_seats |= 1u << seat;
        st->out_count++;
    }
    if (failed) {
        Py_XDECREF(seat_obj);
        goto error;
    }
    if (mask & MJ_BIT) {  /* the Mahjong's player makes the wish now */
        long turn = next_active(st, seat);
        failed = PyDict_SetItem(fields, name_wish_pending_seat, seat_obj) || set_field(fields, name_turn, seat_int(turn))
                 || PyList_Append(events, to_wish[seat]);
        Py_DECREF(seat_obj);
        if (failed)
            goto error;
        return events;
    }
    Py_DECREF(seat_obj);
    if (kind == kinds[DOG]) {  /* the Dog waits for the next trick's winner; the partner leads */
        PyObject *loose_now = field(fields, name_loose_cards), *dog_trick = field(fields, name_trick_cards);
        long partner = (seat + 2) % 4, turn = st->out_seats >> partner & 1 ? next_active(st, partner) : partner;
        Py_ssize_t end = PyList_GET_SIZE(loose_now);
        if (PyList_SetSlice(loose_now, end, end, dog_trick) || set_field(fields, name_trick, PyList_New(0))
            || set_field(fields, name_trick_cards, PyList_New(0)) || PyDict_SetItem(fields, name_top, Py_None)
            || PyDict_SetItem(fields, name_top_seat, Py_None) || set_field(fields, name_turn, seat_int(turn))
            || PyList_Append(events, to_lead[turn]))
            goto error;
        return events;
    }
    long turn = next_active(st, seat);
    if (set_field(fields, name_turn, seat_int(turn)) || PyList_Append(events, to_follow[turn]))
        goto error;
    return events;
error:
    Py_DECREF(events);
    return NULL;
}

/* Round._do_wish by the Mahjong's player, for a rank 2..14 or None. */
static PyObject *apply_wish(PyObject *action, struct round_state *st, long seat)
{
    PyObject *rank = SLOT(action, wish_rank_at);
    long wished = -1;
    PyObject *history = field(st->fields, name_history);
    if (seat != st->wish_pending || st->turn < 0 || st->turn > 3 || rank == NULL
        || (rank != Py_None && (small_or_none(rank, &wished) || wished < 2 || wished > ACE))
        || history == NULL || !PyList_CheckExact(history))
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
    PyObject *seat_obj = seat_int(seat);
    PyObject *names[2] = {name_seat, name_rank}, *values[2] = {seat_obj, rank};
    PyObject *events = PyList_New(0);
    if (seat_obj == NULL || events == NULL || PyList_Append(history, action)
        || PyDict_SetItem(st->fields, name_wish_pending_seat, Py_None) || PyDict_SetItem(st->fields, name_wish, rank)
        || append_new(events, new_event(wish_made_class, 2, names, values)) || PyList_Append(events, to_follow[st->turn]))
        Py_CLEAR(events);
    Py_XDECREF(seat_obj);
    return events;
}

/* Round._do_tichu in the play phase, for a seat that called nothing and played nothing yet. */
static PyObject *apply_tichu(struct round_state *st, PyObject *action, long seat)
{
    int ending = 0;
    PyObject *history = field(st->fields, name_history);
    st->calls = seat_list(st, name_calls);
    st->played_any = st->calls ? seat_list(st, name_played_any) : NULL;
    if (st->played_any == NULL || history == NULL || !PyList_CheckExact(history)
        || uncalled(st, seat) != 1 || PyList_GET_ITEM(st->played_any, seat) != Py_False
        || (st->gift_pending >= 0 && (flag(field(st->fields, name_ending), &ending) || ending)))
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
    if (PyList_Append(history, action) || PyList_SetItem(st->calls, seat, Py_NewRef(tichu_text)))
        return NULL;
    return new_list(1, tichu_called[seat]);
}

/* The points of a list of cards. */
static int points_of(PyObject *cards, long *points)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cards); i++) {
        long value = PyLong_AsLong(SLOT(PyList_GET_ITEM(cards, i), card_points_at));
        if (value == -1 && PyErr_Occurred())
            return -1;
        *points += value;
    }
    return 0;
}

/* Round._do_give by the Dragon's winner to an opponent, while the round goes on. */
static PyObject *apply_give(struct round_state *st, PyObject *action, long seat)
{
    int ending = 1;
    long to = -1, points = 0;
    PyObject *fields = st->fields;
    PyObject *history = field(fields, name_history), *trick = field(fields, name_trick);
    PyObject *trick_cards = field(fields, name_trick_cards), *loose = field(fields, name_loose_cards);
    PyObject *piles = seat_list(st, name_piles);
    if (seat != st->gift_pending || small_or_none(SLOT(action, give_to_at), &to) || (to != (seat + 1) % 4 && to != (seat + 3) % 4)
        || flag(field(fields, name_ending), &ending) || ending || read_top_seat(st) != 1
        || history == NULL || !PyList_CheckExact(history) || trick == NULL || !PyList_CheckExact(trick)
        || trick_cards == NULL || !PyList_CheckExact(trick_cards) || loose == NULL || !PyList_CheckExact(loose)
        || piles == NULL || !PyList_CheckExact(PyList_GET_ITEM(piles, to)))
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
    for (Py_ssize_t p = 0; p < 2; p++) {
        PyObject *part = p ? loose : trick_cards;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(part); i++)
            if (!Py_IS_TYPE(PyList_GET_ITEM(part, i), card_class))
                return Py_NewRef(Py_NotImplemented);
    }
    if (points_of(trick_cards, &points) || points_of(loose, &points))
        return NULL;
    /* Everything is checked: from here on the state changes as the pure methods change it. */
    PyObject *events = PyList_New(0), *seat_obj = seat_int(seat), *to_obj = seat_int(to);
    PyObject *points_obj = PyLong_FromLong(points);
    PyObject *names[3] = {name_seat, name_to, name_points}, *values[3] = {seat_obj, to_obj, points_obj};
    long turn = st->out_seats >> seat & 1 ? next_active(st, seat) : seat;
    int failed = events == NULL || PyList_Append(history, action)
                 || PyDict_SetItem(fields, name_gift_pending_seat, Py_None)
                 || append_new(events, new_event(given_class, 3, names, values))
                 || collect(fields, st, to, events)
                 || PyDict_SetItem(fields, name_top, Py_None) || PyDict_SetItem(fields, name_top_seat, Py_None)
                 || PyDict_SetItem(fields, name_trick_won, Py_False) || set_field(fields, name_passed, PySet_New(NULL))
                 || set_field(fields, name_turn, seat_int(turn)) || PyList_Append(events, to_lead[turn]);
    Py_XDECREF(seat_obj);
    Py_XDECREF(to_obj);
    Py_XDECREF(points_obj);
    if (failed)
        Py_CLEAR(events);
    return events;
}

/* set.update(items) for a tuple of items. */
static int add_all(PyObject *set, PyObject *items)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++)
        if (PySet_Add(set, PyTuple_GET_ITEM(items, i)))
            return -1;
    return 0;
}

/* Round._do_grand: a seat decides about Grand Tichu and gets its last 6 cards. */
static PyObject *apply_grand(struct round_state *st, PyObject *action, long seat, int called)
{
    PyObject *fields = st->fields, *history = field(fields, name_history), *deal = field(fields, name_deal);
    PyObject *decided = seat_list(st, name_grand_decided);
    st->calls = decided ? seat_list(st, name_calls) : NULL;
    st->hands = st->calls ? seat_list(st, name_hands) : NULL;
    if (st->hands == NULL || history == NULL || !PyList_CheckExact(history) || deal == NULL
        || !PyTuple_CheckExact(deal) || PyTuple_GET_SIZE(deal) != 56 || PyList_GET_ITEM(decided, seat) != Py_False
        || !PySet_CheckExact(PyList_GET_ITEM(st->hands, seat)))
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
    int still = 0;  /* the seats that have not decided, after this one */
    for (int s = 0; s < 4; s++) {
        PyObject *done = PyList_GET_ITEM(decided, s);
        if (done != Py_True && done != Py_False)
            return Py_NewRef(Py_NotImplemented);
        still += s != seat && done == Py_False;
    }
    mask_t six = 0;
    PyObject *last = PyTuple_GetSlice(deal, 32 + 6 * seat, 38 + 6 * seat);  /* deal.last_cards */
    if (last == NULL)
        return NULL;
    for (int i = 0; i < 6; i++) {
        PyObject *card = PyTuple_GET_ITEM(last, i), *bit = Py_IS_TYPE(card, card_class) ? SLOT(card, card_bit_at) : NULL;
        mask_t value;
        if (bit == NULL || read_mask(bit, &value)) {
            PyErr_Clear();
            Py_DECREF(last);
            return Py_NewRef(Py_NotImplemented);
        }
        six |= value;
    }
    /* Everything is checked: from here on the state changes as the pure methods change it. */
    PyObject *six_obj = PyLong_FromUnsignedLongLong(six), *sorted = six_obj ? cards_in(six_obj, 1) : NULL;
    PyObject *cards = sorted ? PyList_AsTuple(sorted) : NULL, *seat_obj = seat_int(seat);
    PyObject *names[2] = {name_seat, name_cards}, *values[2] = {seat_obj, cards};
    PyObject *events = cards && seat_obj ? new_list(1, grand_decided_event[seat][called]) : NULL;
    int failed = events == NULL || PyList_Append(history, action)
                 || PyList_SetItem(decided, seat, Py_NewRef(Py_True))
                 || (called && (PyList_SetItem(st->calls, seat, Py_NewRef(grand_text))
                                || PyList_Append(events, grand_called[seat])))
                 || add_all(PyList_GET_ITEM(st->hands, seat), last)
                 || append_new(events, new_event(dealt_class, 2, names, values))
                 || (!still && (PyDict_SetItem(fields, name_phase, exchange_phase)
                                || PyList_Append(events, exchange_started)));
    Py_XDECREF(six_obj);
    Py_XDECREF(sorted);
    Py_XDECREF(cards);
    Py_XDECREF(seat_obj);
    Py_DECREF(last);
    if (failed)
        Py_CLEAR(events);
    return events;
}

/* Round._do_exchange for three different cards of the hand, while another seat has
 * still to pass his (the last exchange, which hands the cards over, is the pure method's). */
static PyObject *apply_exchange(struct round_state *st, PyObject *action, long seat)
{
    PyObject *fields = st->fields, *history = field(fields, name_history), *cards = SLOT(action, exchange_cards_at);
    PyObject *exchanges = seat_list(st, name_exchanges);
    st->hands = exchanges ? seat_list(st, name_hands) : NULL;
    if (st->hands == NULL || history == NULL || !PyList_CheckExact(history) || cards == NULL
        || !PyTuple_CheckExact(cards) || PyTuple_GET_SIZE(cards) != 3 || PyList_GET_ITEM(exchanges, seat) != Py_None
        || !PySet_CheckExact(PyList_GET_ITEM(st->hands, seat)))
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
    int waiting = 0;
    for (int s = 0; s < 4; s++)
        waiting += PyList_GET_ITEM(exchanges, s) == Py_None;
    PyObject *a = PyTuple_GET_ITEM(cards, 0), *b = PyTuple_GET_ITEM(cards, 1), *c = PyTuple_GET_ITEM(cards, 2);
    if (waiting < 2 || a == b || a == c || b == c)
        return Py_NewRef(Py_NotImplemented);
    for (int i = 0; i < 3; i++) {
        PyObject *card = PyTuple_GET_ITEM(cards, i);
        int held = Py_IS_TYPE(card, card_class) ? PySet_Contains(PyList_GET_ITEM(st->hands, seat), card) : 0;
        if (held != 1)
            return held < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    if (PyList_Append(history, action) || PyList_SetItem(exchanges, seat, Py_NewRef(cards)))
        return NULL;
    return new_list(1, exchange_submitted[seat]);
}

/* Round.apply(action), compiled: the pure method for what it does not know. */
static PyObject *round_apply(PyObject *rnd, PyObject *const *args, Py_ssize_t nargs)
{
    if (check_arguments("apply", nargs, 1))
        return NULL;
    PyObject *action = args[0], *done = NULL;
    PyTypeObject *kind = Py_TYPE(action);
    Py_ssize_t seat_at = kind == pass_class ? pass_seat_at : kind == play_class ? play_seat_at
                         : kind == wish_class ? wish_seat_at : kind == tichu_class ? tichu_seat_at
                         : kind == give_class ? give_seat_at : kind == call_grand_class ? call_grand_seat_at
                         : kind == decline_grand_class ? decline_grand_seat_at
                         : kind == exchange_class ? exchange_seat_at : -1;
    if (round_class != NULL && seat_at >= 0) {
        PyObject *seat_obj = SLOT(action, seat_at);
        long seat = seat_obj && PyLong_CheckExact(seat_obj) ? PyLong_AsLong(seat_obj) : -1;
        if (seat < 0 || seat > 3)
            PyErr_Clear();
        else {
            struct round_state st;
            int known = read_round(rnd, &st);  /* sets st.fields first */
            int setup = kind == call_grand_class || kind == decline_grand_class || kind == exchange_class;
            if (known == 2 && kind != exchange_class && setup)
                done = apply_grand(&st, action, seat, kind == call_grand_class);
            else if (known == 3 && kind == exchange_class)
                done = apply_exchange(&st, action, seat);
            else if (known == 1 && !setup)
                done = kind == pass_class ? apply_pass(action, &st, seat)
                       : kind == play_class ? apply_play(action, &st, seat)
                       : kind == wish_class ? apply_wish(action, &st, seat)
                       : kind == tichu_class ? apply_tichu(&st, action, seat) : apply_give(&st, action, seat);
            else if (known >= 0)  /* another phase, or an odd field */
                done = Py_NewRef(Py_NotImplemented);
            Py_XDECREF(st.fields);
            if (done == NULL)
                return NULL;
            if (done != Py_NotImplemented)
                return done;
            Py_DECREF(done);
        }
    }
    return PyObject_CallMethodOneArg(rnd, pure_apply_name, action);
}

/* ------------------------------------------------------------------ configuring the round's paths */

/* The compiled methods, made method descriptors of the Round class by configure_round. */
static PyMethodDef round_methods[] = {
    {"iter_legal_actions", (PyCFunction)(void (*)(void))round_legal, METH_FASTCALL,
     "iter_legal_actions(seat): every action `seat` may take now, as an iterator (compiled: docs/engine.md, "
     "\"Speed\"; the reference is _pure_iter_legal_actions)"},
    {"apply", (PyCFunction)(void (*)(void))round_apply, METH_FASTCALL,
     "apply(action): apply one action: returns the events, or raises and leaves the state unchanged "
     "(compiled: docs/engine.md, \"Speed\"; the reference is _pure_apply)"},
    {NULL, NULL, 0, NULL},
};

/* An item of the configuration dict (borrowed), or NULL with an error. */
static PyObject *setting(PyObject *settings, const char *name, PyTypeObject *type)
{
    PyObject *value = PyDict_GetItemString(settings, name);
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "configure_round: no %s", name);
        return NULL;
    }
    if (type != NULL && !PyObject_TypeCheck(value, type)) {
        PyErr_Format(PyExc_TypeError, "configure_round: %s must be a %s", name, type->tp_name);
        return NULL;
    }
    return value;
}

/* Keep the n items of the tuple `name` (of `type`) in `slots`. */
static int keep_tuple(PyObject *settings, const char *name, PyObject **slots, Py_ssize_t n, PyTypeObject *type)
{
    PyObject *items = setting(settings, name, &PyTuple_Type);
    if (items == NULL)
        return -1;
    if (PyTuple_GET_SIZE(items) != n) {
        PyErr_Format(PyExc_ValueError, "configure_round: %s must hold %zd items", name, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (type != NULL && !PyObject_TypeCheck(PyTuple_GET_ITEM(items, i), type)) {
            PyErr_Format(PyExc_TypeError, "configure_round: %s must hold %s items", name, type->tp_name);
            return -1;
        }
    for (Py_ssize_t i = 0; i < n; i++)
        keep(&slots[i], PyTuple_GET_ITEM(items, i));
    return 0;
}

static int intern_name(PyObject **slot, const char *text)
{
    PyObject *name = PyUnicode_InternFromString(text);
    if (name == NULL)
        return -1;
    Py_XSETREF(*slot, name);
    return 0;
}

static PyObject *configure_round(PyObject *module, PyObject *settings)
{
    if (check_configured())
        return NULL;
    if (!PyDict_Check(settings)) {
        PyErr_SetString(PyExc_TypeError, "configure_round(settings: dict)");
        return NULL;
    }
    PyObject *classes[12];
    const char *class_names[12] = {"Round", "Pass", "Played", "TrickCollected", "WishFulfilled", "HandIndex",
                                   "PlayerOut", "MakeWish", "CallTichu", "GiveDragon", "WishMade", "DragonGiven"};
    for (int i = 0; i < 12; i++)
        if ((classes[i] = setting(settings, class_names[i], &PyType_Type)) == NULL)
            return NULL;
    PyObject *phase = setting(settings, "PLAY", &PyUnicode_Type), *grand = setting(settings, "GRAND", &PyUnicode_Type);
    if (phase == NULL || grand == NULL || slot_offset((PyTypeObject *)classes[1], "seat", &pass_seat_at)
        || slot_offset(card_class, "points", &card_points_at))
        return NULL;
    PyTypeObject *index_cls = (PyTypeObject *)classes[5];
    if (slot_offset(index_cls, "mask", &index_mask_at) || slot_offset(index_cls, "phoenix", &index_phoenix_at)
        || slot_offset(index_cls, "counts", &index_counts_at) || slot_offset(index_cls, "_bombs", &index_bombs_at)
        || slot_offset(index_cls, "_ranks", &index_ranks_at)
        || slot_offset((PyTypeObject *)classes[7], "seat", &wish_seat_at)
        || slot_offset((PyTypeObject *)classes[7], "rank", &wish_rank_at)
        || slot_offset((PyTypeObject *)classes[8], "seat", &tichu_seat_at)
        || slot_offset((PyTypeObject *)classes[9], "seat", &give_seat_at)
        || slot_offset((PyTypeObject *)classes[9], "to", &give_to_at))
        return NULL;
    PyObject *setup[4];
    const char *setup_names[4] = {"CallGrand", "DeclineGrand", "Exchange", "CardsDealt"};
    for (int i = 0; i < 4; i++)
        if ((setup[i] = setting(settings, setup_names[i], &PyType_Type)) == NULL)
            return NULL;
    if (slot_offset((PyTypeObject *)setup[0], "seat", &call_grand_seat_at)
        || slot_offset((PyTypeObject *)setup[1], "seat", &decline_grand_seat_at)
        || slot_offset((PyTypeObject *)setup[2], "seat", &exchange_seat_at)
        || slot_offset((PyTypeObject *)setup[2], "cards", &exchange_cards_at))
        return NULL;
    PyObject *grand_word = setting(settings, "GRAND_CALL", &PyUnicode_Type);
    PyObject *exchange = setting(settings, "EXCHANGE", &PyUnicode_Type);
    PyObject *started = setting(settings, "EXCHANGE_STARTED", NULL);
    PyObject *decided_events = setting(settings, "GRAND_DECIDED", &PyTuple_Type);
    if (grand_word == NULL || exchange == NULL || started == NULL || decided_events == NULL
        || keep_tuple(settings, "GRAND_CALLED", grand_called, 4, NULL)
        || keep_tuple(settings, "EXCHANGE_SUBMITTED", exchange_submitted, 4, NULL))
        return NULL;
    for (int i = 0; i < 4; i++) {
        PyObject *row = PyTuple_GET_SIZE(decided_events) == 4 ? PyTuple_GET_ITEM(decided_events, i) : NULL;
        if (row == NULL || !PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 2) {
            PyErr_SetString(PyExc_ValueError, "configure_round: GRAND_DECIDED must be 4 pairs of events");
            return NULL;
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            keep(&grand_decided_event[i][j], PyTuple_GET_ITEM(PyTuple_GET_ITEM(decided_events, i), j));
    keep(&grand_text, grand_word);
    keep(&exchange_started, started);
    keep_interned(&exchange_phase, exchange);
    keep((PyObject **)&call_grand_class, setup[0]);
    keep((PyObject **)&decline_grand_class, setup[1]);
    keep((PyObject **)&exchange_class, setup[2]);
    keep((PyObject **)&dealt_class, setup[3]);
    PyObject *tichu = setting(settings, "TICHU", &PyUnicode_Type);
    if (tichu == NULL || keep_tuple(settings, "TO_WISH", to_wish, 4, NULL)
        || keep_tuple(settings, "TICHU_CALLED", tichu_called, 4, NULL))
        return NULL;
    keep(&tichu_text, tichu);
    if (keep_tuple(settings, "CALL_TICHU", call_tichu, 4, NULL) || keep_tuple(settings, "PASS", pass_action, 4, NULL)
        || keep_tuple(settings, "WISHES", wishes, 4, &PyTuple_Type) || keep_tuple(settings, "GIFTS", gifts, 4, &PyTuple_Type)
        || keep_tuple(settings, "GRAND_CHOICES", grand_choices, 4, &PyTuple_Type)
        || keep_tuple(settings, "PASSED", passed_event, 4, NULL) || keep_tuple(settings, "TO_FOLLOW", to_follow, 4, NULL)
        || keep_tuple(settings, "TO_LEAD", to_lead, 4, NULL) || keep_tuple(settings, "TO_GIVE", to_give, 4, NULL))
        return NULL;
    PyObject *won = setting(settings, "TRICK_WON", &PyTuple_Type);  /* [winner][leader] */
    if (won == NULL)
        return NULL;
    for (int i = 0; i < 4; i++) {
        PyObject *row = i < PyTuple_GET_SIZE(won) ? PyTuple_GET_ITEM(won, i) : NULL;
        if (PyTuple_GET_SIZE(won) != 4 || !PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 4) {
            PyErr_SetString(PyExc_ValueError, "configure_round: TRICK_WON must be 4 tuples of 4 events");
            return NULL;
        }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            keep(&trick_won_event[i][j], PyTuple_GET_ITEM(PyTuple_GET_ITEM(won, i), j));
    if (empty_args == NULL && (empty_args = PyTuple_New(0)) == NULL)
        return NULL;
    const char *texts[] = {"phase", "calls", "played_any", "gift_pending_seat", "wish_pending_seat",
                           "finish_order", "trick_won", "top", "top_seat", "turn", "hands", "_indexes", "wish",
                           "history", "passed", "trick", "trick_cards", "loose_cards", "piles", "seat",
                           "combo", "out_of_turn", "cards_left", "rank", "winner", "to", "points",
                           "_pure_iter_legal_actions", "_pure_apply", "grand_decided", "ending", "place",
                           "deal", "exchanges", "cards"};
    PyObject **slots[] = {&name_phase, &name_calls, &name_played_any, &name_gift_pending_seat,
                          &name_wish_pending_seat, &name_finish_order, &name_trick_won, &name_top, &name_top_seat,
                          &name_turn, &name_hands, &name_indexes, &name_wish, &name_history,
                          &name_passed, &name_trick, &name_trick_cards, &name_loose_cards, &name_piles, &name_seat,
                          &name_combo, &name_out_of_turn, &name_cards_left, &name_rank, &name_winner, &name_to,
                          &name_points, &pure_legal_name, &pure_apply_name, &name_grand_decided, &name_ending,
                          &name_place, &name_deal, &name_exchanges, &name_cards};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (intern_name(slots[i], texts[i]))
            return NULL;
    keep_interned(&play_phase, phase);
    keep_interned(&grand_phase, grand);
    keep((PyObject **)&pass_class, classes[1]);
    keep((PyObject **)&played_class, classes[2]);
    keep((PyObject **)&collected_class, classes[3]);
    keep((PyObject **)&fulfilled_class, classes[4]);
    keep((PyObject **)&hand_index_class, classes[5]);
    keep((PyObject **)&out_class, classes[6]);
    keep((PyObject **)&wish_class, classes[7]);
    keep((PyObject **)&tichu_class, classes[8]);
    keep((PyObject **)&give_class, classes[9]);
    keep((PyObject **)&wish_made_class, classes[10]);
    keep((PyObject **)&given_class, classes[11]);
    keep((PyObject **)&round_class, classes[0]);
    PyObject *made = PyDict_New();  /* {name: method descriptor of Round} */
    for (PyMethodDef *def = round_methods; made != NULL && def->ml_name != NULL; def++) {
        PyObject *method = PyDescr_NewMethod(round_class, def);
        if (method == NULL || PyDict_SetItemString(made, def->ml_name, method))
            Py_CLEAR(made);
        Py_XDECREF(method);
    }
    return made;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(Combo, types, natural_singles, dog, mahjong, dragon, phoenix_lead, phoenix_single, Play, Card, deck)"},
    {"play_list", (PyCFunction)(void (*)(void))play_list, METH_FASTCALL,
     "play_list(hand, top): every combination of the hand (a mask, or a HandIndex) that may go onto `top` "
     "(None: leads)"},
    {"bombs", bombs, METH_O, "bombs(mask): every bomb of the hand `mask`"},
    {"mask_of", mask_of, METH_O, "mask_of(cards): the cards as a bit mask"},
    {"cards_of", cards_of, METH_O, "cards_of(mask): the cards of a mask, by index"},
    {"sorted_cards_of", sorted_cards_of, METH_O, "sorted_cards_of(mask): the cards of a mask in print order"},
    {"plays_of", (PyCFunction)(void (*)(void))plays_of, METH_FASTCALL,
     "plays_of(seat, combos): the listed Play of each combo, as actions.play_of makes it"},
    {"configure_round", configure_round, METH_O,
     "configure_round(settings): the Round class, its shared actions and events, for the round's hot paths; "
     "returns the compiled methods by name"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "bswtichu.engine._combos_accel",
    "Compiled play generation for bswtichu.engine.combos (optional; the pure version is the reference).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__combos_accel(void)
{
    build_subsets();
    return PyModule_Create(&module_def);
}
