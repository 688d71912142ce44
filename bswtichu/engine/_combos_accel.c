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
 * combos._combo does (the ``_cards`` slot stays empty until ``cards`` is asked for).
 *
 * Every function here is pure: masks, cards and combinations in, lists out; no
 * game state, no seat count, no rule of play beyond "which combinations beat
 * this table".  The round's rules live once, in round.py.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h> /* PyMemberDef; part of Python.h from 3.12, with Py_T_OBJECT_EX */
#define Py_T_OBJECT_EX T_OBJECT_EX
#endif
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
    if (member->type != Py_T_OBJECT_EX) {
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
