/* Compiled twins of Oza boosting's hot loops and of the online calibrators' updates (streamboost/kernels.py says which and why).
 *
 * Every function does, in C, the floating-point operations of its Python twin in the same order
 * (compiled without contraction into fused multiply-adds, -ffp-contract=off), and draws from the
 * same generators in the same order, so its results are the twin's bit for bit; the tests run
 * both on real streams and compare every prediction.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* numpy's bit generator interface (numpy/random/bitgen.h) and its Poisson sampler, linked from
 * numpy's static library npyrandom: the draws of Generator.poisson, element by element. */
typedef struct bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

extern int64_t random_poisson(bitgen_t *bitgen_state, double lam);

/* numpy/random/_common.pyx: INT64_MAX - 10 sqrt(INT64_MAX) */
#define POISSON_LAM_MAX (9.223372006484771e18)

#define TIE_BAND 1e-9

/* C99's restrict, under the name MSVC's C compiler knows */
#if defined(_MSC_VER)
#define RESTRICT __restrict
#else
#define RESTRICT restrict
#endif

#define EXPECT_ARGS(count, name)                                                                  \
    if (nargs != (count)) {                                                                       \
        PyErr_SetString(PyExc_TypeError, name " takes " #count " arguments");                     \
        return NULL;                                                                              \
    } /* members/linear.py: _TIE_BAND */

/* River's LogisticRegression vote from a margin: the sign, and in the tie band River's own
 * arithmetic (utils.math.sigmoid, then p > 1 - p), as members/linear.py decides it. */
static int river_vote(double m)
{
    if (m > TIE_BAND || m < -TIE_BAND)
        return m > 0.0;
    double p = 1.0 / (1.0 + exp(-m));
    return p > 1.0 - p;
}

static int get_double(PyObject *list, Py_ssize_t i, double *out)
{
    *out = PyFloat_AsDouble(PyList_GET_ITEM(list, i));
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int set_double(PyObject *list, Py_ssize_t i, double value)
{
    PyObject *f = PyFloat_FromDouble(value);
    if (f == NULL)
        return -1;
    PyObject *old = PyList_GET_ITEM(list, i);
    PyList_SET_ITEM(list, i, f);
    Py_DECREF(old);
    return 0;
}

static int check_list(PyObject *obj, Py_ssize_t n, const char *name)
{
    if (!PyList_CheckExact(obj) || PyList_GET_SIZE(obj) != n) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of %zd items", name, n);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- uniforms
 *
 * The boosters draw from a random.Random: a Poisson draw takes one uniform or more, and 100
 * weak members take about 230 an example, each a call back into Python (a float made and read
 * back), a fifth of their time. CPython's random.Random keeps its Mersenne Twister state in
 * its C object (Modules/_randommodule.c: `int index; uint32_t state[624]` after the object
 * header); where that layout is confirmed, read-only, at import (`check_random_layout`:
 * getstate() must show the same words, then draws made here and by Python must agree bit for
 * bit and leave the same state), the uniforms are drawn here, in place, as
 * random.Random.random draws them: the same numbers, and the generator as Python would leave
 * it. Anywhere else (another layout, a free-threaded build, a subclass or instance that
 * overrides `random`), each uniform is Python's call. */

#define MT_N 624
#define MT_M 397

typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[MT_N];
} mt_layout;

static PyTypeObject *random_type; /* random.Random where its layout is confirmed, else NULL */
static PyCFunction random_function; /* the C function behind random.Random.random */

/* genrand_uint32 of Modules/_randommodule.c (Matsumoto & Nishimura's MT19937). */
static uint32_t mt_next(mt_layout *r)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = r->state;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random.random: 53 random bits as a double in [0, 1). */
static double mt_random(mt_layout *r)
{
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* Where a loop's uniforms come from: the generator's state in place, or its bound `random`. */
typedef struct {
    mt_layout *mt;
    PyObject *bound;
} uniform_source;

static int source_open(PyObject *rng, uniform_source *src)
{
    src->mt = NULL;
    src->bound = PyObject_GetAttrString(rng, "random");
    if (src->bound == NULL)
        return -1;
    /* in place only where `random` is random.Random's own, bound to this object */
    if (random_type != NULL && PyObject_TypeCheck(rng, random_type) &&
        PyCFunction_Check(src->bound) && PyCFunction_GET_SELF(src->bound) == rng &&
        PyCFunction_GET_FUNCTION(src->bound) == random_function)
        src->mt = (mt_layout *)rng;
    return 0;
}

static void source_close(uniform_source *src)
{
    Py_CLEAR(src->bound);
}

static int next_uniform(uniform_source *src, double *out)
{
    if (src->mt != NULL) {
        *out = mt_random(src->mt);
        return 0;
    }
    PyObject *r = PyObject_CallNoArgs(src->bound);
    if (r == NULL)
        return -1;
    *out = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

/* Whether random.Random's state can be drawn from in place (see above): 1 yes, 0 no, -1 an
 * error. Nothing is written to a generator before its layout is confirmed by reading. */
static int check_random_layout(void)
{
#ifdef Py_GIL_DISABLED
    return 0; /* Python's own draws take a lock there */
#else
    int ok = 0;
    PyObject *module = NULL, *type = NULL, *rng = NULL, *twin = NULL, *state = NULL;
    PyObject *inner = NULL, *bound = NULL, *after = NULL, *twin_after = NULL;
    module = PyImport_ImportModule("random");
    if (module == NULL)
        goto done;
    type = PyObject_GetAttrString(module, "Random");
    if (type == NULL)
        goto done;
    if (!PyType_Check(type) || ((PyTypeObject *)type)->tp_basicsize < (Py_ssize_t)sizeof(mt_layout))
        goto done;
    rng = PyObject_CallFunction(type, "i", 20261129);
    if (rng == NULL)
        goto done;
    state = PyObject_CallMethod(rng, "getstate", NULL);
    if (state == NULL)
        goto done;
    /* (version, the 624 words then the index, gauss_next) */
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 3)
        goto done;
    inner = PyTuple_GET_ITEM(state, 1);
    if (!PyTuple_Check(inner) || PyTuple_GET_SIZE(inner) != MT_N + 1)
        goto done;
    mt_layout *r = (mt_layout *)rng;
    for (Py_ssize_t i = 0; i <= MT_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(inner, i));
        if (word == (unsigned long)-1 && PyErr_Occurred())
            goto done;
        if (i < MT_N ? word != r->state[i] : (long)word != r->index)
            goto done;
    }
    bound = PyObject_GetAttrString(rng, "random");
    if (bound == NULL)
        goto done;
    if (!PyCFunction_Check(bound) || PyCFunction_GET_SELF(bound) != rng)
        goto done;
    twin = PyObject_CallNoArgs(type);
    if (twin == NULL)
        goto done;
    PyObject *set = PyObject_CallMethod(twin, "setstate", "(O)", state);
    if (set == NULL)
        goto done;
    Py_DECREF(set);
    for (int i = 0; i < 2 * MT_N + 7; i++) { /* two refills of the state and a little more */
        PyObject *value = PyObject_CallMethod(twin, "random", NULL);
        if (value == NULL)
            goto done;
        double expected = PyFloat_AsDouble(value);
        Py_DECREF(value);
        if (expected != mt_random(r))
            goto done;
    }
    after = PyObject_CallMethod(rng, "getstate", NULL);
    twin_after = after == NULL ? NULL : PyObject_CallMethod(twin, "getstate", NULL);
    if (twin_after == NULL)
        goto done;
    ok = PyObject_RichCompareBool(after, twin_after, Py_EQ);
    if (ok == 1) {
        random_type = (PyTypeObject *)Py_NewRef(type);
        random_function = PyCFunction_GET_FUNCTION(bound);
    }
done:
    Py_XDECREF(twin_after);
    Py_XDECREF(after);
    Py_XDECREF(bound);
    Py_XDECREF(state);
    Py_XDECREF(twin);
    Py_XDECREF(rng);
    Py_XDECREF(type);
    Py_XDECREF(module);
    if (ok < 0 || PyErr_Occurred()) {
        PyErr_Clear(); /* a layout that cannot be checked is not used */
        ok = 0;
    }
    return ok;
#endif
}

static PyObject *py_lgamma; /* math.lgamma: CPython's own, not the C library's */

/* k ~ Poisson(rate): streamboost.poisson.poisson, its Knuth branch below knuth_max and PTRS
 * (Hoermann 1993) above, the same uniforms and operations. */
static int draw_poisson(double rate, uniform_source *uniform, double knuth_max, long *k_out)
{
    double u, v;
    long k = 0;
    if (rate < knuth_max) {
        if (rate <= 0.0) {
            *k_out = 0;
            return 0;
        }
        double limit = exp(-rate), p;
        if (next_uniform(uniform, &p))
            return -1;
        while (p > limit) {
            k += 1;
            if (next_uniform(uniform, &u))
                return -1;
            p *= u;
        }
        *k_out = k;
        return 0;
    }
    double slam = sqrt(rate), loglam = log(rate);
    double b = 0.931 + 2.53 * slam;
    double a = -0.059 + 0.02483 * b;
    double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
    double v_r = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        if (next_uniform(uniform, &u) || next_uniform(uniform, &v))
            return -1;
        u = u - 0.5;
        double us = 0.5 - fabs(u);
        k = (long)floor((2.0 * a / us + b) * u + rate + 0.43);
        if (us >= 0.07 && v <= v_r)
            break;
        if (k < 0 || (us < 0.013 && v > us))
            continue;
        PyObject *arg = PyFloat_FromDouble((double)(k + 1));
        if (arg == NULL)
            return -1;
        PyObject *r = PyObject_CallOneArg(py_lgamma, arg);
        Py_DECREF(arg);
        if (r == NULL)
            return -1;
        double lg = PyFloat_AsDouble(r);
        Py_DECREF(r);
        if (lg == -1.0 && PyErr_Occurred())
            return -1;
        if (log(v) + log(inv_alpha) - log(a / (us * us) + b) <= -rate + (double)k * loglam - lg)
            break;
    }
    *k_out = k;
    return 0;
}

/* A member kind's vote after member i learns the current example k >= 1 times (its
 * ArrayMembers.vote_after), with what it needs from the current example. */
typedef int (*vote_after_fn)(void *ctx, Py_ssize_t i, long k, int *vote);

/* OzaBoostClassifier.learn_one's loop (Oza 2005, Fig. 2): member i draws k ~ Poisson(lam),
 * learns x k times (`vote_after`) or keeps its vote `before[i]`, and lam, sc[i], sw[i] follow
 * Oza's rule. */
static int oza_loop(PyObject *before, int target, PyObject *sc, PyObject *sw, PyObject *rng,
                    double knuth_max, vote_after_fn vote_after, void *ctx)
{
    Py_ssize_t n = PyList_GET_SIZE(sc);
    uniform_source uniform;
    if (source_open(rng, &uniform))
        return -1;
    double lam = 1.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long k;
        int vote;
        if (draw_poisson(lam, &uniform, knuth_max, &k))
            goto error;
        if (k) {
            if (vote_after(ctx, i, k, &vote))
                goto error;
        } else if ((vote = PyObject_IsTrue(PyList_GET_ITEM(before, i))) < 0) {
            goto error;
        }
        double right, wrong;
        if (get_double(sc, i, &right) || get_double(sw, i, &wrong))
            goto error;
        if (vote == target) {
            right = right + lam;
            if (set_double(sc, i, right))
                goto error;
            lam *= (right + wrong) / (2.0 * right);
        } else {
            wrong = wrong + lam;
            if (set_double(sw, i, wrong))
                goto error;
            lam *= (right + wrong) / (2.0 * wrong);
        }
    }
    source_close(&uniform);
    return 0;
error:
    source_close(&uniform);
    return -1;
}

static int set_long(PyObject *list, Py_ssize_t i, long value)
{
    PyObject *item = PyLong_FromLong(value);
    if (item == NULL)
        return -1;
    PyObject *old = PyList_GET_ITEM(list, i);
    PyList_SET_ITEM(list, i, item);
    Py_DECREF(old);
    return 0;
}

/* ---------------------------------------------------------------- logistic regressions */

typedef struct {
    PyObject *margins, *moves, *steps;
    double sign, neg_sign, weight, clip, curvature, w, lr;
    int weighted, trained;
} linear_ctx;

/* LinearMembers.vote_after: k steps of River's Log.gradient of sample weight w (or one of
 * weight k w), each moving the margin on x by -g * curvature. */
static int linear_vote_after(void *p, Py_ssize_t i, long k, int *vote)
{
    linear_ctx *c = p;
    double m;
    if (get_double(c->margins, i, &m))
        return -1;
    double total = 0.0;
    long repeats = c->weighted ? 1 : k;
    double w = c->weighted ? (double)k * c->w : c->w;
    for (long j = 0; j < repeats; j++) {
        double z = m * c->sign, g;
        if (z > 18.0)
            g = c->weight * exp(-z) * c->neg_sign;
        else if (z < -18.0)
            g = c->weight * c->neg_sign;
        else
            g = c->weight * c->neg_sign / (exp(z) + 1.0);
        g *= w;
        if (g > c->clip || g < -c->clip)
            g = g > 0.0 ? c->clip : -c->clip;
        total += g;
        m -= g * c->curvature;
    }
    if (set_double(c->moves, i, c->lr * total))
        return -1;
    long taken = PyLong_AsLong(PyList_GET_ITEM(c->steps, i));
    if ((taken == -1 && PyErr_Occurred()) || set_long(c->steps, i, taken + repeats))
        return -1;
    c->trained = 1;
    *vote = river_vote(m);
    return 0;
}

/* oza_linear(margins, before, target, step, lr, weighted, sc, sw, moves, steps, rng, knuth_max)
 * -> bool: learn_one's loop over LinearMembers; moves[i] becomes lr * (sum of the gradients),
 * steps[i] grows by the steps taken; returns whether any member learned. */
static PyObject *oza_linear(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(12, "oza_linear");
    linear_ctx c = {.margins = args[0], .moves = args[8], .steps = args[9]};
    PyObject *before = args[1], *step = args[3], *sc = args[6], *sw = args[7];
    int target = PyObject_IsTrue(args[2]);
    c.weighted = PyObject_IsTrue(args[5]);
    c.lr = PyFloat_AsDouble(args[4]);
    double knuth_max = PyFloat_AsDouble(args[11]);
    if (target < 0 || c.weighted < 0 || PyErr_Occurred())
        return NULL;
    if (!PyList_CheckExact(c.margins)) {
        PyErr_SetString(PyExc_TypeError, "margins must be a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(c.margins);
    if (check_list(before, n, "before") || check_list(sc, n, "sc") || check_list(sw, n, "sw") ||
        check_list(c.moves, n, "moves") || check_list(c.steps, n, "steps"))
        return NULL;
    if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "step must be a tuple (sign, weight, clip, curvature, w)");
        return NULL;
    }
    long sign = PyLong_AsLong(PyTuple_GET_ITEM(step, 0));
    c.sign = (double)sign;
    c.neg_sign = (double)(-sign);
    c.weight = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 1));
    c.clip = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 2));
    c.curvature = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 3));
    c.w = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 4));
    if (PyErr_Occurred())
        return NULL;
    c.trained = 0;
    if (oza_loop(before, target, sc, sw, args[10], knuth_max, linear_vote_after, &c))
        return NULL;
    return PyBool_FromLong(c.trained);
}

/* ---------------------------------------------------------------- weak learners */

typedef struct {
    int stump, target;
    PyObject *ks, *switch_, *best_right, *best_wrong, *xs;
    const char *params, *gradients; /* strided: params[j, i, f], gradients[i, f] */
    Py_ssize_t params_strides[3], gradient_strides[2];
    Py_ssize_t members, present;
    double lr;
    double w; /* the example's sample weight: a draw k learns with weight k w */
    /* scores[i, f] and right[i, f], strided, when the choice must be exact (NULL: the switch) */
    const char *scores, *right;
    Py_ssize_t scores_strides[2], right_strides[2];
} weak_ctx;

/* stump_vote's rule for one candidate, the part that does not depend on x: *rule 2 to split
 * at *split with *gap's sign ((x - *split) * *gap > 0), else the vote itself, 0 or 1. */
static void stump_rule(double n_pos, double n_neg, double s_pos, double s_neg, double *split,
                       double *gap, char *rule)
{
    if (n_pos > 0.0 && n_neg > 0.0) {
        double mu_pos = s_pos / n_pos, mu_neg = s_neg / n_neg;
        *gap = mu_pos - mu_neg;
        if (*gap != 0.0) {
            *split = (mu_pos + mu_neg) * 0.5;
            *rule = 2;
            return;
        }
    }
    *rule = (char)(n_pos > n_neg);
}

/* A candidate's vote on x by its stump_rule. */
static int rule_vote(char rule, double split, double gap, double x)
{
    return rule > 1 ? (x - split) * gap > 0.0 : rule;
}

/* A stump candidate's probability (DecisionStump._probabilities): its Krichevsky-Trofimov
 * accuracy ((seen + score) / 2 + 1/2) / (seen + 1), at least 1/2, for a positive vote, 1 minus
 * it for a negative one. */
static double stump_probability(double seen, double score, int vote)
{
    double accuracy = ((seen + score) / 2.0 + 0.5) / (seen + 1.0);
    accuracy = accuracy < 0.5 ? 0.5 : accuracy; /* np.maximum's: NaN stays NaN */
    return vote ? accuracy : 1.0 - accuracy;
}

/* DecisionStump's vote from its class weights and sums: streamboost.weak.stump.stump_vote. */
static int stump_vote(double n_pos, double n_neg, double s_pos, double s_neg, double x)
{
    double split, gap;
    char rule;
    stump_rule(n_pos, n_neg, s_pos, s_neg, &split, &gap, &rule);
    return rule_vote(rule, split, gap, x);
}

/* WeakMembers.vote_after: the candidate that wins after weight v = k w (right one iff
 * 2v > switch; with `scores`, the first highest of scores[i, f] + v * (right ? 1 : -1)), then
 * StumpMembers' or UnivariateMembers' _vote_after on it; ks[i] becomes v (k itself for w 1). */
static int weak_vote_after(void *p, Py_ssize_t i, long k, int *vote)
{
    weak_ctx *c = p;
    double kd = (double)k;
    if (c->w != 1.0) {
        kd *= c->w;
        PyObject *item = PyFloat_FromDouble(kd);
        if (item == NULL)
            return -1;
        PyObject *old = PyList_GET_ITEM(c->ks, i);
        PyList_SET_ITEM(c->ks, i, item);
        Py_DECREF(old);
    } else if (set_long(c->ks, i, k)) {
        return -1;
    }
    if (c->present == 0) {
        *vote = 0;
        return 0;
    }
    Py_ssize_t f = 0;
    if (c->scores != NULL) {
        const char *row = c->scores + i * c->scores_strides[0];
        const char *hits = c->right + i * c->right_strides[0];
        double top = 0.0;
        for (Py_ssize_t j = 0; j < c->present; j++) {
            double sign = *(hits + j * c->right_strides[1]) ? 1.0 : -1.0;
            double value = *(const double *)(row + j * c->scores_strides[1]) + kd * sign;
            if (j == 0 || value > top) {
                top = value;
                f = j;
            }
        }
    } else {
        double threshold;
        if (get_double(c->switch_, i, &threshold))
            return -1;
        PyObject *best = 2.0 * kd > threshold ? c->best_right : c->best_wrong;
        f = PyLong_AsSsize_t(PyList_GET_ITEM(best, i));
        if (f == -1 && PyErr_Occurred())
            return -1;
    }
    double x;
    if (get_double(c->xs, f, &x))
        return -1;
    const Py_ssize_t *st = c->params_strides;
    const char *at = c->params + i * st[1] + f * st[2];
#define PARAM(j) (*(const double *)(at + (j) * st[0]))
    if (c->stump) {
        double n_pos = PARAM(0), n_neg = PARAM(1), s_pos = PARAM(2), s_neg = PARAM(3);
        *vote = c->target ? stump_vote(n_pos + kd, n_neg, s_pos + kd * x, s_neg, x)
                          : stump_vote(n_pos, n_neg + kd, s_pos, s_neg + kd * x, x);
    } else {
        const Py_ssize_t *gs = c->gradient_strides;
        double g = *(const double *)(c->gradients + i * gs[0] + f * gs[1]);
        double step = kd * (c->lr * g);
        *vote = (PARAM(0) - step * x) * x + (PARAM(1) - step) > 0.0;
    }
#undef PARAM
    return 0;
}

static int get_matrix(PyObject *obj, Py_buffer *view, int ndim, const Py_ssize_t *shape,
                      const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
        return -1;
    int ok = view->ndim == ndim && view->itemsize == 8 && strchr("d", view->format[0]) != NULL;
    for (int d = 0; ok && d < ndim; d++)
        ok = shape[d] < 0 || view->shape[d] == shape[d];
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s must be a float64 array of %d dims", name, ndim);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* oza_weak(stump, before, target, sc, sw, ks, rng, knuth_max, switch, best_right, best_wrong,
 *          xs, params, gradients, lr, w, scores, right) -> None: learn_one's loop over
 * StumpMembers (stump true) or UnivariateMembers; params are the members' candidates on x's
 * features (field x member x feature), gradients (member x feature) the univariate ones' (None
 * for stumps); w the example's sample weight; scores and right (member x feature, float64 and
 * bool) the candidates' scores and hits when the choice must be exact (scores that are not all
 * whole numbers), else None; ks[i] becomes member i's draw times w. */
static PyObject *oza_weak(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(18, "oza_weak");
    weak_ctx c = {.ks = args[5], .switch_ = args[8], .best_right = args[9],
                  .best_wrong = args[10], .xs = args[11]};
    PyObject *before = args[1], *sc = args[3], *sw = args[4];
    c.stump = PyObject_IsTrue(args[0]);
    c.target = PyObject_IsTrue(args[2]);
    double knuth_max = PyFloat_AsDouble(args[7]);
    c.lr = PyFloat_AsDouble(args[14]);
    c.w = PyFloat_AsDouble(args[15]);
    if (c.stump < 0 || c.target < 0 || PyErr_Occurred())
        return NULL;
    if (!PyList_CheckExact(sc) || !PyList_CheckExact(c.xs)) {
        PyErr_SetString(PyExc_TypeError, "sc and xs must be lists");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(sc);
    c.members = n;
    c.present = PyList_GET_SIZE(c.xs);
    if (check_list(before, n, "before") || check_list(sw, n, "sw") || check_list(c.ks, n, "ks"))
        return NULL;
    if (c.present && (check_list(c.switch_, n, "switch") ||
                      check_list(c.best_right, n, "best_right") ||
                      check_list(c.best_wrong, n, "best_wrong")))
        return NULL;
    Py_buffer params = {0}, grads = {0}, scores = {0}, right = {0};
    int have_params = 0, have_grads = 0, have_scores = 0, have_right = 0, failed = 1;
    if (c.present) {
        Py_ssize_t shape[3] = {c.stump ? 4 : 2, n, c.present};
        if (get_matrix(args[12], &params, 3, shape, "params"))
            goto done;
        have_params = 1;
        c.params = params.buf;
        memcpy(c.params_strides, params.strides, sizeof c.params_strides);
        if (!c.stump) {
            if (get_matrix(args[13], &grads, 2, shape + 1, "gradients"))
                goto done;
            have_grads = 1;
            c.gradients = grads.buf;
            memcpy(c.gradient_strides, grads.strides, sizeof c.gradient_strides);
        }
        if (args[16] != Py_None) {
            if (get_matrix(args[16], &scores, 2, shape + 1, "scores"))
                goto done;
            have_scores = 1;
            if (PyObject_GetBuffer(args[17], &right, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
                goto done;
            have_right = 1;
            if (right.ndim != 2 || right.itemsize != 1 || right.format[0] != '?' ||
                right.shape[0] != n || right.shape[1] != c.present) {
                PyErr_SetString(PyExc_TypeError, "right must be a bool array the shape of scores");
                goto done;
            }
            c.scores = scores.buf;
            c.right = right.buf;
            memcpy(c.scores_strides, scores.strides, sizeof c.scores_strides);
            memcpy(c.right_strides, right.strides, sizeof c.right_strides);
        }
    }
    failed = oza_loop(before, c.target, sc, sw, args[6], knuth_max, weak_vote_after, &c);
done:
    if (have_params)
        PyBuffer_Release(&params);
    if (have_grads)
        PyBuffer_Release(&grads);
    if (have_scores)
        PyBuffer_Release(&scores);
    if (have_right)
        PyBuffer_Release(&right);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

/* best_candidates(scores, right) -> (switch, best_right, best_wrong): WeakMembers.begin's
 * search, per member (row): the first highest score among the candidates right on x and among
 * those wrong (numpy's argmax over scores with the other group at -inf), and the threshold
 * that 2k must exceed for the right one to win, gap - 1/2 if it comes first. */
static PyObject *best_candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(2, "best_candidates");
    Py_buffer scores, right;
    Py_ssize_t any_shape[2] = {-1, -1};
    if (get_matrix(args[0], &scores, 2, any_shape, "scores"))
        return NULL;
    if (PyObject_GetBuffer(args[1], &right, PyBUF_STRIDES | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&scores);
        return NULL;
    }
    if (right.ndim != 2 || right.format[0] != '?' || right.shape[0] != scores.shape[0] ||
        right.shape[1] != scores.shape[1]) {
        PyErr_SetString(PyExc_TypeError, "right must be a bool array shaped as scores");
        PyBuffer_Release(&scores);
        PyBuffer_Release(&right);
        return NULL;
    }
    Py_ssize_t n = scores.shape[0], m = scores.shape[1];
    PyObject *switch_ = PyList_New(n), *best_right = PyList_New(n), *best_wrong = PyList_New(n);
    PyObject *result = NULL;
    if (switch_ == NULL || best_right == NULL || best_wrong == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *srow = (const char *)scores.buf + i * scores.strides[0];
        const char *rrow = (const char *)right.buf + i * right.strides[0];
        Py_ssize_t br = 0, bw = 0;
        double vr = -INFINITY, vw = -INFINITY;
        for (Py_ssize_t f = 0; f < m; f++) {
            double v = *(const double *)(srow + f * scores.strides[1]);
            int is_right = *(rrow + f * right.strides[1]) != 0;
            double r = is_right ? v : -INFINITY, w = is_right ? -INFINITY : v;
            if (f == 0 || r > vr) { /* argmax: the first of the highest */
                vr = r;
                br = f;
            }
            if (f == 0 || w > vw) {
                vw = w;
                bw = f;
            }
        }
        double gap = vw - vr;
        PyObject *a = PyFloat_FromDouble(gap - 0.5 * (double)(br < bw));
        PyObject *b = PyLong_FromSsize_t(br), *c = PyLong_FromSsize_t(bw);
        if (a == NULL || b == NULL || c == NULL) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_XDECREF(c);
            goto done;
        }
        PyList_SET_ITEM(switch_, i, a);
        PyList_SET_ITEM(best_right, i, b);
        PyList_SET_ITEM(best_wrong, i, c);
    }
    result = PyTuple_Pack(3, switch_, best_right, best_wrong);
done:
    Py_XDECREF(switch_);
    Py_XDECREF(best_right);
    Py_XDECREF(best_wrong);
    PyBuffer_Release(&scores);
    PyBuffer_Release(&right);
    return result;
}

/* poisson(rate, rng) -> int: draw_poisson, for the tests to compare with streamboost.poisson. */
static PyObject *poisson(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "poisson");
    double rate = PyFloat_AsDouble(args[0]), knuth_max = PyFloat_AsDouble(args[2]);
    if (PyErr_Occurred())
        return NULL;
    uniform_source uniform;
    if (source_open(args[1], &uniform))
        return NULL;
    long k;
    int failed = draw_poisson(rate, &uniform, knuth_max, &k);
    source_close(&uniform);
    return failed ? NULL : PyLong_FromLong(k);
}

/* draws_in_place(rng) -> bool: whether the kernels draw rng's uniforms from its state in place
 * (`source_open`), not by calling its `random`. */
static PyObject *draws_in_place(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(1, "draws_in_place");
    uniform_source uniform;
    if (source_open(args[0], &uniform))
        return NULL;
    int in_place = uniform.mt != NULL;
    source_close(&uniform);
    return PyBool_FromLong(in_place);
}

/* oza_alphas(sc, sw, stop) -> list: OzaBoostClassifier._compute_alphas (AdaMEC's vote weights,
 * Oza 2005 Fig. 2 with the error floored at 1/(2(n+1))). */
static PyObject *oza_alphas(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "oza_alphas");
    PyObject *sc = args[0], *sw = args[1];
    int stop = PyObject_IsTrue(args[2]);
    if (stop < 0 || !PyList_CheckExact(sc))
        return stop < 0 ? NULL : (PyErr_SetString(PyExc_TypeError, "sc must be a list"), NULL);
    Py_ssize_t n = PyList_GET_SIZE(sc);
    if (check_list(sw, n, "sw"))
        return NULL;
    PyObject *alphas = PyList_New(n);
    if (alphas == NULL)
        return NULL;
    int stopped = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double right, wrong, alpha = 0.0;
        if (!stopped) {
            if (get_double(sc, i, &right) || get_double(sw, i, &wrong)) {
                Py_DECREF(alphas);
                return NULL;
            }
            if (wrong >= right) { /* epsilon >= 1/2, or no example seen */
                stopped = stop && wrong > 0.0;
            } else {
                double total = right + wrong;
                double eps = wrong / total, floor = 0.5 / (total + 1.0);
                if (eps < floor)
                    eps = floor;
                alpha = 0.5 * log((1.0 - eps) / eps);
            }
        }
        PyObject *f = PyFloat_FromDouble(alpha);
        if (f == NULL) {
            Py_DECREF(alphas);
            return NULL;
        }
        PyList_SET_ITEM(alphas, i, f);
    }
    return alphas;
}

/* The arguments (alphas, values, flag) of vote_score and soft_score: `alphas` a list, the
 * values a list of as many items (`what` in an error), the flag a truth value. The number of
 * members, or -1 with an exception set. */
static Py_ssize_t member_arguments(PyObject *const *args, const char *what, int *flag)
{
    *flag = PyObject_IsTrue(args[2]);
    if (*flag < 0)
        return -1;
    if (!PyList_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "alphas must be a list");
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(args[0]);
    return check_list(args[1], n, what) ? -1 : n;
}

/* vote_score(alphas, votes, logistic) -> float: OzaBoostClassifier._score_one's sum (Nikolaou
 * 2016, Eq. 7.6 or, logistic, 7.7); a member with alpha 0 or vote None abstains. */
static PyObject *vote_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "vote_score");
    PyObject *alphas = args[0], *votes = args[1];
    int logistic;
    Py_ssize_t n = member_arguments(args, "votes", &logistic);
    if (n < 0)
        return NULL;
    double total = 0.0, positive = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double alpha;
        if (get_double(alphas, i, &alpha))
            return NULL;
        PyObject *vote = PyList_GET_ITEM(votes, i);
        if (alpha == 0.0 || vote == Py_None)
            continue;
        total += alpha;
        int yes = PyObject_IsTrue(vote);
        if (yes < 0)
            return NULL;
        if (yes)
            positive += alpha;
    }
    if (total == 0.0)
        return PyFloat_FromDouble(0.5);
    if (!logistic)
        return PyFloat_FromDouble(positive / total);
    double z = 2.0 * (2.0 * positive - total);
    if (z >= 0.0)
        return PyFloat_FromDouble(1.0 / (1.0 + exp(-z)));
    double e = exp(z);
    return PyFloat_FromDouble(e / (1.0 + e));
}

/* River's utils.math.sigmoid as a float: LogisticRegression's P(True) of a margin. */
static double river_sigmoid(double m)
{
    if (m < -30.0)
        return 0.0;
    if (m > 30.0)
        return 1.0;
    return 1.0 / (1.0 + exp(-m));
}

/* soft_score(alphas, values, margins) -> float: members/base.py `soft_score`, the booster's
 * score="soft" (MOA's OzaBoost, River's AdaBoostClassifier): sum of alpha * p over sum of
 * alpha, each in member order, a member with alpha 0 or value None abstaining (0.5 if all do);
 * `margins`: each value is a margin, mapped by River's sigmoid first. */
static PyObject *soft_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "soft_score");
    PyObject *alphas = args[0], *values = args[1];
    int margins;
    Py_ssize_t n = member_arguments(args, "values", &margins);
    if (n < 0)
        return NULL;
    double total = 0.0, positive = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double alpha, p;
        if (get_double(alphas, i, &alpha))
            return NULL;
        if (alpha == 0.0 || PyList_GET_ITEM(values, i) == Py_None)
            continue;
        if (get_double(values, i, &p))
            return NULL;
        total += alpha;
        positive += alpha * (margins ? river_sigmoid(p) : p);
    }
    return PyFloat_FromDouble(total != 0.0 ? positive / total : 0.5);
}

/* A C-contiguous 1-d buffer of `n` items of format `kind` ('d' float64, '?' bool, 'q' int64);
 * n < 0 takes any length and sets it. */
static int get_buffer(PyObject *obj, Py_buffer *view, char kind, Py_ssize_t *n, int writable,
                      const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return -1;
    const char *format = view->format;
    char got = format[0] == '=' || format[0] == '<' || format[0] == '@' ? format[1] : format[0];
    if (got == 'l' && view->itemsize == 8)
        got = 'q';
    if (view->ndim != 1 || got != kind || (*n >= 0 && view->shape[0] != *n)) {
        PyErr_Format(PyExc_TypeError, "%s must be a 1-d array of format '%c'%s", name, kind,
                     *n >= 0 ? " and the minibatch's length" : "");
        PyBuffer_Release(view);
        return -1;
    }
    *n = view->shape[0];
    return 0;
}

typedef struct {
    char kind;
    int writable;
    const char *name;
} buffer_spec;

static void release_buffers(Py_buffer *views, int count)
{
    for (int j = 0; j < count; j++)
        PyBuffer_Release(&views[j]);
}

/* Release the first `count` of the buffers `held` points to (those acquired, in that order),
 * the last first: a kernel's exit, whichever buffer it failed at. */
static void release_held(Py_buffer *const *held, int count)
{
    while (count > 0)
        PyBuffer_Release(held[--count]);
}

/* `count` 1-d buffers of one length (set in *n), as `specs` say; none held on failure. */
static int get_buffers(PyObject *const *objs, const buffer_spec *specs, int count,
                       Py_buffer *views, Py_ssize_t *n)
{
    for (int j = 0; j < count; j++) {
        if (get_buffer(objs[j], &views[j], specs[j].kind, n, specs[j].writable, specs[j].name)) {
            release_buffers(views, j);
            return -1;
        }
    }
    return 0;
}

/* stump_votes(params, xv, out): out[i, f] = stump_vote of member i's candidate f on xv[f], params
 * (n_pos, n_neg, s_pos, s_neg) x member x feature: DecisionStump._candidate_votes, element by
 * element. */
static PyObject *stump_votes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "stump_votes");
    Py_buffer params, xv, out;
    Py_ssize_t four[3] = {4, -1, -1}, m = -1;
    if (get_matrix(args[0], &params, 3, four, "params"))
        return NULL;
    if (get_buffer(args[1], &xv, 'd', &m, 0, "xv")) {
        PyBuffer_Release(&params);
        return NULL;
    }
    if (PyObject_GetBuffer(args[2], &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0)
        goto fail;
    Py_ssize_t n = params.shape[1];
    if (out.ndim != 2 || out.format[0] != '?' || out.shape[0] != n || out.shape[1] != m ||
        params.shape[2] != m) {
        PyErr_SetString(PyExc_TypeError, "out must be a bool array of members x features");
        PyBuffer_Release(&out);
        goto fail;
    }
    const Py_ssize_t *st = params.strides;
    const double *x = xv.buf;
    char *votes = out.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t f = 0; f < m; f++) {
            const char *at = (const char *)params.buf + i * st[1] + f * st[2];
#define FIELD(j) (*(const double *)(at + (j) * st[0]))
            votes[i * m + f] = (char)stump_vote(FIELD(0), FIELD(1), FIELD(2), FIELD(3), x[f]);
#undef FIELD
        }
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&xv);
    PyBuffer_Release(&params);
    Py_RETURN_NONE;
fail:
    PyBuffer_Release(&xv);
    PyBuffer_Release(&params);
    return NULL;
}

/* weak_soft(univariate, params, scores, chosen, xv, votes, alphas) -> float: WeakMembers's
 * soft_score of an x with a feature: member i's probability is its chosen candidate c =
 * chosen[i]'s (WeakLearner._probabilities), from params (field x member x feature), scores
 * (member x feature) and xv[c]: a stump's accuracy ((seen + score) / 2 + 1/2) / (seen + 1),
 * at least 1/2, for its vote votes[i] (1 - it against); a univariate regression's
 * 1 / (1 + e^-m), m = coef x + bias (0 for m <= -700, the learner's own cut); then
 * soft_score's weighted mean, in member order. `chosen` is numpy's argmax, int64 (intp on a
 * 64-bit build; the caller passes none elsewhere). */
static PyObject *weak_soft(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(7, "weak_soft");
    int univariate = PyObject_IsTrue(args[0]);
    if (univariate < 0)
        return NULL;
    PyObject *votes = args[5], *alphas = args[6];
    Py_buffer params, scores, chosen, xv;
    Py_ssize_t any3[3] = {-1, -1, -1}, k = -1, n = -1;
    if (get_matrix(args[1], &params, 3, any3, "params"))
        return NULL;
    Py_ssize_t shape2[2] = {params.shape[1], params.shape[2]};
    PyObject *result = NULL;
    if (get_matrix(args[2], &scores, 2, shape2, "scores"))
        goto release_params;
    if (get_buffer(args[3], &chosen, 'q', &n, 0, "chosen"))
        goto release_scores;
    if (get_buffer(args[4], &xv, 'd', &k, 0, "xv"))
        goto release_chosen;
    if (params.shape[0] < 2 || n != params.shape[1] || k != params.shape[2] ||
        check_list(votes, n, "votes") || check_list(alphas, n, "alphas")) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "weak_soft: params, scores, chosen and xv disagree");
        goto release_xv;
    }
    const Py_ssize_t *st = params.strides;
    const int64_t *best = chosen.buf;
    const double *x = xv.buf;
    double total = 0.0, positive = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t c = best[i];
        if (c < 0 || c >= k) {
            PyErr_Format(PyExc_IndexError, "weak_soft: chosen[%zd] = %lld is not a feature",
                         i, (long long)c);
            goto release_xv;
        }
        double alpha;
        if (get_double(alphas, i, &alpha))
            goto release_xv;
        if (alpha == 0.0)
            continue;
        const char *at = (const char *)params.buf + i * st[1] + c * st[2];
        double a = *(const double *)at, b = *(const double *)(at + st[0]), p;
        if (univariate) {
            double m = a * x[c];
            m = m + b;
            p = m > -700.0 ? 1.0 / (1.0 + exp(-m)) : 0.0;
        } else {
            double seen = a + b;
            double score = *(const double *)((const char *)scores.buf + i * scores.strides[0] +
                                             c * scores.strides[1]);
            int vote = PyObject_IsTrue(PyList_GET_ITEM(votes, i));
            if (vote < 0)
                goto release_xv;
            p = stump_probability(seen, score, vote);
        }
        total += alpha;
        positive += alpha * p;
    }
    result = PyFloat_FromDouble(total != 0.0 ? positive / total : 0.5);
release_xv:
    PyBuffer_Release(&xv);
release_chosen:
    PyBuffer_Release(&chosen);
release_scores:
    PyBuffer_Release(&scores);
release_params:
    PyBuffer_Release(&params);
    return result;
}

/* weak_sigmoids(margins, out): out[j] = 1 / (1 + e^-m), m = margins[j], or 0 for m <= -700
 * (and NaN), UnivariateLogisticRegression._probabilities element by element with the C
 * library's exp, which is math.exp's (numpy's own exp may differ in the last bit). */
static PyObject *weak_sigmoids(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(2, "weak_sigmoids");
    static const buffer_spec specs[] = {{'d', 0, "margins"}, {'d', 1, "out"}};
    Py_buffer views[2];
    Py_ssize_t n = -1;
    if (get_buffers(args, specs, 2, views, &n))
        return NULL;
    const double *margins = views[0].buf;
    double *out = views[1].buf;
    for (Py_ssize_t j = 0; j < n; j++) {
        double m = margins[j];
        out[j] = m > -700.0 ? 1.0 / (1.0 + exp(-m)) : 0.0;
    }
    release_buffers(views, 2);
    Py_RETURN_NONE;
}

/* poisson_fill(capsule, lam, out): out[b] ~ Poisson(lam[b]) from the bit generator in
 * `capsule` (Generator.bit_generator.capsule), in order: Generator.poisson(lam)'s draws. */
/* Generator.poisson's draws for the rates lam[0..n) into out, after its checks on every rate (0
 * <= lam <= its POISSON_LAM_MAX), made before any draw; -1 with a ValueError for a bad one. */
static int poisson_draws(bitgen_t *bitgen, const double *lam, int64_t *out, Py_ssize_t n)
{
    for (Py_ssize_t b = 0; b < n; b++) {
        if (!(lam[b] >= 0.0 && lam[b] <= POISSON_LAM_MAX)) {
            char text[64];
            snprintf(text, sizeof text, "%.17g", lam[b]);
            PyErr_Format(PyExc_ValueError, "lam must be in [0, 9.2e18], got %s at row %zd", text,
                         b);
            return -1;
        }
    }
    for (Py_ssize_t b = 0; b < n; b++)
        out[b] = random_poisson(bitgen, lam[b]);
    return 0;
}

static PyObject *poisson_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "poisson_fill");
    bitgen_t *bitgen = PyCapsule_GetPointer(args[0], "BitGenerator");
    if (bitgen == NULL)
        return NULL;
    static const buffer_spec specs[] = {{'d', 0, "lam"}, {'q', 1, "out"}};
    Py_buffer views[2];
    Py_ssize_t n = -1;
    if (get_buffers(args + 1, specs, 2, views, &n))
        return NULL;
    int failed = poisson_draws(bitgen, views[0].buf, views[1].buf, n);
    release_buffers(views, 2);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

/* The lambda update of oza_batch below, in place; *right, *wrong: the member's lambda_sc and
 * lambda_sw, as they stood before the minibatch, then after it. */
static void oza_update(const char *votes, const char *targets, double *lam, Py_ssize_t n,
                       double *right, double *wrong)
{
    double sc = *right, sw = *wrong;
    for (Py_ssize_t b = 0; b < n; b++) {
        double correct = (votes[b] != 0) == (targets[b] != 0) ? 1.0 : 0.0;
        double r = lam[b] * correct;
        double w = lam[b] - r;
        sc = sc + r;
        sw = sw + w;
        double chosen = correct != 0.0 ? sc : sw;
        chosen *= 2.0;
        lam[b] *= (sc + sw) / chosen;
    }
    *right = sc;
    *wrong = sw;
}

/* oza_batch(votes, targets, lam, sc, sw) -> (sc, sw): OzaBoostClassifier._learn_table's update
 * of lambda after member i learned a minibatch: row b's lambda_sc, lambda_sw are running sums
 * from (sc, sw) up to b; lam[b] *= (sc_b + sw_b) / (2 (sc_b if right else sw_b)). */
static PyObject *oza_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "oza_batch");
    double right = PyFloat_AsDouble(args[3]), wrong = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred())
        return NULL;
    static const buffer_spec specs[] = {{'?', 0, "votes"}, {'?', 0, "targets"}, {'d', 1, "lam"}};
    Py_buffer views[3];
    Py_ssize_t n = -1;
    if (get_buffers(args, specs, 3, views, &n))
        return NULL;
    oza_update(views[0].buf, views[1].buf, views[2].buf, n, &right, &wrong);
    release_buffers(views, 3);
    return Py_BuildValue("(dd)", right, wrong);
}

/* out[b]: row b of `table` (n x width) times weights[member], summed over the columns from the
 * first; four rows at a time, so that four sums advance together (each in its own order). */
static void row_margins(const Py_buffer *table, const Py_buffer *weights, Py_ssize_t member,
                        Py_ssize_t n, Py_ssize_t width, double *out)
{
    const char *w = (const char *)weights->buf + member * weights->strides[0];
    const Py_ssize_t ws = weights->strides[1], ts = table->strides[1], rs = table->strides[0];
#define W(j) (*(const double *)(w + (j) * ws))
#define X(row, j) (*(const double *)((row) + (j) * ts))
    Py_ssize_t b = 0;
    for (; b + 4 <= n; b += 4) {
        const char *r0 = (const char *)table->buf + b * rs, *r1 = r0 + rs, *r2 = r1 + rs,
                   *r3 = r2 + rs;
        double m0 = X(r0, 0) * W(0), m1 = X(r1, 0) * W(0), m2 = X(r2, 0) * W(0),
               m3 = X(r3, 0) * W(0);
        for (Py_ssize_t j = 1; j < width; j++) {
            double wj = W(j);
            m0 += X(r0, j) * wj;
            m1 += X(r1, j) * wj;
            m2 += X(r2, j) * wj;
            m3 += X(r3, j) * wj;
        }
        out[b] = m0;
        out[b + 1] = m1;
        out[b + 2] = m2;
        out[b + 3] = m3;
    }
    for (; b < n; b++) {
        const char *r = (const char *)table->buf + b * rs;
        double m = X(r, 0) * W(0);
        for (Py_ssize_t j = 1; j < width; j++)
            m += X(r, j) * W(j);
        out[b] = m;
    }
#undef W
#undef X
}

/* LinearMembers.learn_batch for member i, in place: each row's gradient from its margin on
 * `rows` (row b of X times -y_b) summed in column order, River's Log.gradient with scipy's
 * expit, 1 / (1 + e^-z), times the row's scale and draw, clipped and times the rate; the step,
 * each column's sum over the rows in row order (the intercepts' times `ratio`), subtracted from
 * weights[i]; then each row's vote (River's) on the new weights, its margin summed in column
 * order, into `votes`. The sums' orders are the numpy twin's cumsums. `g` (n) and `step`
 * (width) are scratch. Returns how many rows drew k > 0. */
static long linear_member_learn(const Py_buffer *xv, const Py_buffer *rv, const double *scale,
                                const int64_t *ks, const Py_buffer *wv, Py_ssize_t member,
                                Py_ssize_t n, Py_ssize_t width, double clip, double lr,
                                double ratio, double *g, double *step, char *votes)
{
    long drawn = 0;
    row_margins(rv, wv, member, n, width, g); /* each row's margin on `rows` */
    for (Py_ssize_t b = 0; b < n; b++) {
        double e = 1.0 / (1.0 + exp(-g[b])); /* the twin's expit, then its in-place steps */
        e = e * scale[b];
        e = e * (double)ks[b];
        if (e > clip)
            e = clip;
        if (e < -clip)
            e = -clip;
        g[b] = e * lr;
        drawn += ks[b] != 0;
    }
    /* each column's step, the sum over the rows from the first: rows outer, so that the
     * columns' sums advance together along a row (the same order for each sum) */
    for (Py_ssize_t b = 0; b < n; b++) {
        const char *x = (const char *)xv->buf + b * xv->strides[0];
        const double gb = g[b];
        if (xv->strides[1] == (Py_ssize_t)sizeof(double)) { /* a contiguous row */
            const double *RESTRICT xr = (const double *)x;
            double *RESTRICT sr = step;
            if (b == 0)
                for (Py_ssize_t j = 0; j < width; j++)
                    sr[j] = gb * xr[j];
            else
                for (Py_ssize_t j = 0; j < width; j++)
                    sr[j] += gb * xr[j];
            continue;
        }
        for (Py_ssize_t j = 0; j < width; j++) {
            double term = gb * *(const double *)(x + j * xv->strides[1]);
            step[j] = b ? step[j] + term : term;
        }
    }
    if (ratio != 1.0)
        step[0] *= ratio;
    char *w = (char *)wv->buf + member * wv->strides[0];
    for (Py_ssize_t j = 0; j < width; j++)
        *(double *)(w + j * wv->strides[1]) -= step[j];
    row_margins(xv, wv, member, n, width, g); /* the margins on the new weights */
    for (Py_ssize_t b = 0; b < n; b++)
        votes[b] = (char)river_vote(g[b]);
    return drawn;
}

/* What both frame kernels take first (args[0..3]): numpy's bit generator, the table X (rows x
 * width), the rows' targets and their sample weights w (None: 1), acquired in that order;
 * frame_release lets go of those held. */
typedef struct {
    bitgen_t *bitgen;
    Py_buffer x, targets, w;
    const double *sample; /* w's values; NULL for None */
    int got;              /* how many of x, targets and w are held */
    Py_ssize_t n, width;
} frame_args;

static void frame_release(frame_args *f)
{
    Py_buffer *const held[] = {&f->x, &f->targets, &f->w};
    release_held(held, f->got);
}

static int frame_acquire(PyObject *const *args, frame_args *f)
{
    const Py_ssize_t any2[2] = {-1, -1};
    f->got = 0;
    f->sample = NULL;
    f->bitgen = PyCapsule_GetPointer(args[0], "BitGenerator");
    if (f->bitgen == NULL || get_matrix(args[1], &f->x, 2, any2, "X"))
        return -1;
    f->got = 1;
    f->n = f->x.shape[0];
    f->width = f->x.shape[1];
    if (get_buffer(args[2], &f->targets, '?', &f->n, 0, "targets"))
        return -1;
    f->got = 2;
    if (args[3] != Py_None) {
        if (get_buffer(args[3], &f->w, 'd', &f->n, 0, "w"))
            return -1;
        f->got = 3;
        f->sample = f->w.buf;
    }
    return 0;
}

/* Every member's lambda sums, from the lists sc and sw (checked: `members` items), into right
 * and wrong, before any change. */
static int read_lambdas(PyObject *sc, PyObject *sw, Py_ssize_t members, double *right,
                        double *wrong)
{
    for (Py_ssize_t i = 0; i < members; i++)
        if (get_double(sc, i, &right[i]) || get_double(sw, i, &wrong[i]))
            return -1;
    return 0;
}

/* After member i's step: the lambdas' update by its votes (oza_update), its sums stored. */
static int pass_lambdas(const char *votes, const char *targets, double *lam, Py_ssize_t n,
                        PyObject *sc, PyObject *sw, Py_ssize_t i, double *right, double *wrong)
{
    oza_update(votes, targets, lam, n, &right[i], &wrong[i]);
    return set_double(sc, i, right[i]) || set_double(sw, i, wrong[i]) ? -1 : 0;
}

/* oza_linear_frame(bitgen, X, targets, w, weights, weight_pos, weight_neg, clip, lr, ratio, sc,
 *                  sw, steps) -> None: OzaBoostClassifier._learn_table over LinearMembers,
 * every member in one call: its rows signed and scaled once (learn_batch's `_batch`: row b of
 * X times -y_b; -weight_pos or weight_neg, times w[b]), then for member i in order its draws
 * (poisson_fill's, from `bitgen`), its step (linear_member_learn), the lambdas' update
 * (oza_update) and its sc[i], sw[i], steps[i]. Every argument is checked before any change; a
 * rate that goes bad (which the arithmetic cannot make) stops it as poisson_fill would. */
static PyObject *oza_linear_frame(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(13, "oza_linear_frame");
    double weight_pos = PyFloat_AsDouble(args[5]), weight_neg = PyFloat_AsDouble(args[6]);
    double clip = PyFloat_AsDouble(args[7]), lr = PyFloat_AsDouble(args[8]);
    double ratio = PyFloat_AsDouble(args[9]);
    if (PyErr_Occurred())
        return NULL;
    const Py_ssize_t any2[2] = {-1, -1};
    frame_args f;
    Py_buffer wv;
    int weights_held = 0;
    PyObject *result = NULL;
    char *scratch = NULL;
    if (frame_acquire(args, &f) || get_matrix(args[4], &wv, 2, any2, "weights"))
        goto done;
    weights_held = 1;
    Py_ssize_t n = f.n, width = f.width, members = wv.shape[0];
    if (n < 1 || width < 1 || wv.shape[1] < width || wv.readonly) {
        PyErr_SetString(PyExc_TypeError, "oza_linear_frame's arrays do not fit each other");
        goto done;
    }
    if (check_list(args[10], members, "sc") || check_list(args[11], members, "sw") ||
        check_list(args[12], members, "steps"))
        goto done;
    /* one block: rows (n x width), scale, lam, g (n each), step (width), each member's sc and
     * sw, then the draws (n), the members' steps, the votes (n) */
    size_t doubles = (size_t)n * (size_t)width + 3 * (size_t)n + (size_t)width +
                     2 * (size_t)members;
    scratch = PyMem_Malloc(doubles * sizeof(double) +
                           ((size_t)n + (size_t)members) * sizeof(int64_t) + (size_t)n);
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *rows = (double *)scratch, *scale = rows + n * width, *lam = scale + n, *g = lam + n;
    double *step = g + n, *right = step + width, *wrong = right + members;
    int64_t *ks = (int64_t *)(wrong + members), *steps = ks + n;
    char *votes = (char *)(steps + members);
    if (read_lambdas(args[10], args[11], members, right, wrong))
        goto done;
    for (Py_ssize_t i = 0; i < members; i++) {
        steps[i] = PyLong_AsLongLong(PyList_GET_ITEM(args[12], i));
        if (steps[i] == -1 && PyErr_Occurred())
            goto done;
    }
    const char *targets = f.targets.buf;
    for (Py_ssize_t b = 0; b < n; b++) {
        const char *x = (const char *)f.x.buf + b * f.x.strides[0];
        double sign = targets[b] ? -1.0 : 1.0;
        for (Py_ssize_t j = 0; j < width; j++)
            rows[b * width + j] = *(const double *)(x + j * f.x.strides[1]) * sign;
        scale[b] = targets[b] ? -weight_pos : weight_neg;
        if (f.sample != NULL)
            scale[b] *= f.sample[b];
        lam[b] = 1.0;
    }
    Py_ssize_t shape[2] = {n, width};
    Py_ssize_t strides[2] = {width * (Py_ssize_t)sizeof(double), sizeof(double)};
    Py_buffer rv = {.buf = rows, .ndim = 2, .shape = shape, .strides = strides};
    for (Py_ssize_t i = 0; i < members; i++) {
        if (poisson_draws(f.bitgen, lam, ks, n))
            goto done;
        long drawn = linear_member_learn(&f.x, &rv, scale, ks, &wv, i, n, width, clip, lr,
                                         ratio, g, step, votes);
        if (pass_lambdas(votes, targets, lam, n, args[10], args[11], i, right, wrong) ||
            set_long(args[12], i, (long)(steps[i] + drawn)))
            goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(scratch);
    if (weights_held)
        PyBuffer_Release(&wv);
    frame_release(&f);
    return result;
}

#define TABLE_CELL(x, b, j)                                                                      \
    (*(const double *)((const char *)(x)->buf + (b) * (x)->strides[0] + (j) * (x)->strides[1]))

/* whole[b]: whether row b of the table x (n x width, NaN where a row lacks a feature) has every
 * feature. */
static void whole_rows(const Py_buffer *x, Py_ssize_t n, Py_ssize_t width, char *whole)
{
    for (Py_ssize_t b = 0; b < n; b++) {
        whole[b] = 1;
        for (Py_ssize_t j = 0; j < width && whole[b]; j++)
            whole[b] = TABLE_CELL(x, b, j) == TABLE_CELL(x, b, j);
    }
}

/* A weak member's chosen column on each row of the table x into chosen[b], as
 * WeakMembers._chosen_votes chooses it: the candidate of the first highest score among the
 * row's features (`score`, the member's scores `stride` bytes apart; a whole row, every feature
 * present, takes the first highest of all); -1 on a row with no feature. */
static void chosen_columns(const Py_buffer *x, Py_ssize_t n, Py_ssize_t width, const char *whole,
                           const char *score, Py_ssize_t stride, Py_ssize_t *chosen)
{
#define AT(j) (*(const double *)(score + (j) * stride))
    Py_ssize_t first = 0;
    for (Py_ssize_t j = 1; j < width; j++)
        if (AT(j) > AT(first))
            first = j;
    for (Py_ssize_t b = 0; b < n; b++) {
        Py_ssize_t best = -1;
        if (whole[b])
            best = first;
        else
            for (Py_ssize_t j = 0; j < width; j++)
                if (TABLE_CELL(x, b, j) == TABLE_CELL(x, b, j) && (best < 0 || AT(j) > AT(best)))
                    best = j;
        chosen[b] = best;
    }
#undef AT
}

/* A stump member's vote on each row of the table x into votes[b * step], by the candidate
 * chosen_columns chooses (into `chosen`) and that candidate's rule (stump_rule's split, gap and
 * rule per column); False on a row with no feature. */
static void stump_chosen_votes(const Py_buffer *x, Py_ssize_t n, Py_ssize_t width,
                               const char *whole, const char *score, Py_ssize_t stride,
                               const double *split, const double *gap, const char *rule,
                               char *votes, Py_ssize_t step, Py_ssize_t *chosen)
{
    chosen_columns(x, n, width, whole, score, stride, chosen);
    for (Py_ssize_t b = 0; b < n; b++) {
        Py_ssize_t c = chosen[b];
        votes[b * step] =
            (char)(c >= 0 && rule_vote(rule[c], split[c], gap[c], TABLE_CELL(x, b, c)));
    }
}

/* A weak members' minibatch as both learning kernels take it: the frame's arguments, the
 * members' score (member x column) and params (field x member x column), and whether each row
 * of the table has every feature. */
typedef struct {
    frame_args f;
    Py_buffer scv, pv;
    const char *whole;
} weak_frame;

#define WF_SCORE(w, i, j)                                                                        \
    (*(double *)((char *)(w)->scv.buf + (i) * (w)->scv.strides[0] + (j) * (w)->scv.strides[1]))
#define WF_PARAM(w, field, i, j)                                                                 \
    (*(double *)((char *)(w)->pv.buf + (field) * (w)->pv.strides[0] +                          \
                 (i) * (w)->pv.strides[1] + (j) * (w)->pv.strides[2]))

/* Member i's step on the minibatch, its rows weighted k_b w_b (`weight`), in place; its votes
 * after it into votes (chosen: scratch for each row's column; columns: the kernel's own scratch
 * for each column). */
typedef void weak_member_step(const weak_frame *w, Py_ssize_t i, const double *weight,
                              char *votes, Py_ssize_t *chosen, char *columns, const void *ctx);

/* OzaBoostClassifier._learn_table over weak members, every member in one call, for the kernel
 * `name` (args: bitgen, X, targets, w, score, params, sc, sw): params `fields` deep; `fits`
 * (NULL: none) checks the kernel's own arguments against the frame's; `column_bytes` of
 * scratch for each column. For member i in order: its draws (poisson_fill's, from `bitgen`) as
 * weights k_b w_b (WeakMembers.learn_batch), its step and votes after it (`step`), then the
 * lambdas' update (oza_update). Checked before any change. */
static PyObject *weak_frame_learn(PyObject *const *args, Py_ssize_t fields, const char *name,
                                  int (*fits)(const weak_frame *, const void *),
                                  Py_ssize_t column_bytes, weak_member_step *step,
                                  const void *ctx)
{
    const Py_ssize_t any2[2] = {-1, -1}, deep[3] = {fields, -1, -1};
    weak_frame w;
    Py_buffer *const held[] = {&w.scv, &w.pv}; /* in the order acquired */
    int got = 0;
    PyObject *result = NULL;
    char *scratch = NULL;
    if (frame_acquire(args, &w.f) || get_matrix(args[4], &w.scv, 2, any2, "score"))
        goto done;
    got = 1;
    if (get_matrix(args[5], &w.pv, 3, deep, "params"))
        goto done;
    got = 2;
    Py_ssize_t n = w.f.n, width = w.f.width, members = w.scv.shape[0];
    if (n < 1 || width < 2 || w.scv.shape[1] < width || w.pv.shape[1] != members ||
        w.pv.shape[2] < width || w.scv.readonly || w.pv.readonly ||
        (fits != NULL && !fits(&w, ctx))) {
        PyErr_Format(PyExc_TypeError, "%s's arrays do not fit each other", name);
        goto done;
    }
    if (check_list(args[6], members, "sc") || check_list(args[7], members, "sw"))
        goto done;
    /* one block: lam, each row's weight (n each), each member's sc and sw, the draws (n), each
     * row's chosen column (n), the kernel's columns, the votes (n), whether each row has every
     * feature (n) */
    scratch = PyMem_Malloc((2 * (size_t)n + 2 * (size_t)members) * sizeof(double) +
                           (size_t)n * (sizeof(int64_t) + sizeof(Py_ssize_t)) +
                           (size_t)width * (size_t)column_bytes + 2 * (size_t)n);
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *lam = (double *)scratch, *weight = lam + n, *right = weight + n;
    double *wrong = right + members;
    int64_t *ks = (int64_t *)(wrong + members);
    Py_ssize_t *chosen = (Py_ssize_t *)(ks + n);
    char *columns = (char *)(chosen + n), *votes = columns + width * column_bytes;
    char *whole = votes + n;
    if (read_lambdas(args[6], args[7], members, right, wrong))
        goto done;
    for (Py_ssize_t b = 0; b < n; b++)
        lam[b] = 1.0;
    whole_rows(&w.f.x, n, width, whole);
    w.whole = whole;
    for (Py_ssize_t i = 0; i < members; i++) {
        if (poisson_draws(w.f.bitgen, lam, ks, n))
            goto done;
        for (Py_ssize_t b = 0; b < n; b++)
            weight[b] = w.f.sample != NULL ? (double)ks[b] * w.f.sample[b] : (double)ks[b];
        step(&w, i, weight, votes, chosen, columns, ctx);
        if (pass_lambdas(votes, w.f.targets.buf, lam, n, args[6], args[7], i, right, wrong))
            goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(scratch);
    release_held(held, got);
    frame_release(&w.f);
    return result;
}

/* A stump member's step: each candidate's vote on each row at its parameters before the
 * minibatch moves its score by +-k_b w_b and its class's weight and sum by k_b w_b and
 * k_b w_b x (DecisionStump._candidate_learn_batch); each row's vote after it by
 * stump_chosen_votes. `columns`: each column's split and gap (doubles), then its rule. */
static void stump_member_step(const weak_frame *w, Py_ssize_t i, const double *weight,
                              char *votes, Py_ssize_t *chosen, char *columns, const void *ctx)
{
    Py_ssize_t n = w->f.n, width = w->f.width;
    const char *targets = w->f.targets.buf;
    double *split = (double *)columns, *gap = split + width;
    char *rule = (char *)(gap + width);
    for (Py_ssize_t j = 0; j < width; j++) {
        double n_pos = WF_PARAM(w, 0, i, j), n_neg = WF_PARAM(w, 1, i, j);
        double s_pos = WF_PARAM(w, 2, i, j), s_neg = WF_PARAM(w, 3, i, j);
        double moved = 0.0, pos = 0.0, neg = 0.0, pos_x = 0.0, neg_x = 0.0;
        stump_rule(n_pos, n_neg, s_pos, s_neg, &split[j], &gap[j], &rule[j]);
        for (Py_ssize_t b = 0; b < n; b++) {
            double x = TABLE_CELL(&w->f.x, b, j);
            double v = x == x ? weight[b] : 0.0; /* an absent cell (NaN) weighs 0, x 0 */
            if (x != x)
                x = 0.0;
            int hit = rule_vote(rule[j], split[j], gap[j], x) == (targets[b] != 0);
            double term = v * (hit ? 1.0 : -1.0);
            double p = targets[b] ? v : 0.0, q = targets[b] ? 0.0 : v;
            if (b == 0) {
                moved = term, pos = p, neg = q, pos_x = p * x, neg_x = q * x;
            } else {
                moved += term, pos += p, neg += q, pos_x += p * x, neg_x += q * x;
            }
        }
        WF_SCORE(w, i, j) = WF_SCORE(w, i, j) + moved;
        WF_PARAM(w, 0, i, j) = n_pos + pos;
        WF_PARAM(w, 1, i, j) = n_neg + neg;
        WF_PARAM(w, 2, i, j) = s_pos + pos_x;
        WF_PARAM(w, 3, i, j) = s_neg + neg_x;
        stump_rule(WF_PARAM(w, 0, i, j), WF_PARAM(w, 1, i, j), WF_PARAM(w, 2, i, j),
                   WF_PARAM(w, 3, i, j), &split[j], &gap[j], &rule[j]);
    }
    stump_chosen_votes(&w->f.x, n, width, w->whole,
                       (const char *)w->scv.buf + i * w->scv.strides[0], w->scv.strides[1], split,
                       gap, rule, votes, 1, chosen);
}

/* oza_stump_frame(bitgen, X, targets, w, score, params, sc, sw) -> None:
 * OzaBoostClassifier._learn_table over StumpMembers (weak_frame_learn, stump_member_step), for
 * a table X (rows x width, width >= 2, NaN where a row lacks the feature) and the members'
 * score (member x column) and params (n_pos, n_neg, s_pos, s_neg x member x column), in place.
 * Each column's sums run over the rows in order from the first row's term: numpy's sum along
 * the first axis of a table two columns wide or more (one column wide, numpy sums pairwise:
 * the caller keeps that to the twin). */
static PyObject *oza_stump_frame(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(8, "oza_stump_frame");
    return weak_frame_learn(args, 4, "oza_stump_frame", NULL, 2 * sizeof(double) + 1,
                            stump_member_step, NULL);
}

/* oza_univariate_frame's own arguments: the gradients and the rate. */
typedef struct {
    Py_buffer gradients;
    double lr;
} univariate_args;

static int univariate_fits(const weak_frame *w, const void *ctx)
{
    const Py_buffer *g = &((const univariate_args *)ctx)->gradients;
    return g->shape[0] == w->scv.shape[0] && g->shape[1] == w->f.n && g->shape[2] == w->f.width;
}

/* A univariate regression member's step: each candidate's vote on each row before the step
 * moves its score by +-k_b w_b; its coef moves by -sum_b k_b w_b (lr g_b) x_b and its bias by
 * -sum_b k_b w_b (lr g_b) (UnivariateLogisticRegression._candidate_learn_batch); each row's
 * vote after it, by the column chosen_columns chooses (False on a row with none). */
static void univariate_member_step(const weak_frame *w, Py_ssize_t i, const double *weight,
                                   char *votes, Py_ssize_t *chosen, char *columns,
                                   const void *ctx)
{
    const univariate_args *u = ctx;
    const Py_buffer *g = &u->gradients;
    Py_ssize_t n = w->f.n, width = w->f.width;
    const char *targets = w->f.targets.buf;
#define GRADIENT(b, j)                                                                           \
    (*(const double *)((const char *)g->buf + i * g->strides[0] + (b) * g->strides[1] +        \
                       (j) * g->strides[2]))
    for (Py_ssize_t j = 0; j < width; j++) {
        double coef = WF_PARAM(w, 0, i, j), bias = WF_PARAM(w, 1, i, j);
        double moved = 0.0, moved_x = 0.0, moved_bias = 0.0;
        for (Py_ssize_t b = 0; b < n; b++) {
            double x = TABLE_CELL(&w->f.x, b, j);
            double v = x == x ? weight[b] : 0.0; /* an absent cell (NaN) weighs 0, x 0 */
            if (x != x)
                x = 0.0;
            int hit = (coef * x + bias > 0.0) == (targets[b] != 0);
            double term = v * (hit ? 1.0 : -1.0);
            double step = v * (u->lr * GRADIENT(b, j));
            if (b == 0) {
                moved = term, moved_x = step * x, moved_bias = step;
            } else {
                moved += term, moved_x += step * x, moved_bias += step;
            }
        }
        WF_SCORE(w, i, j) = WF_SCORE(w, i, j) + moved;
        WF_PARAM(w, 0, i, j) = coef - moved_x;
        WF_PARAM(w, 1, i, j) = bias - moved_bias;
    }
#undef GRADIENT
    chosen_columns(&w->f.x, n, width, w->whole, (const char *)w->scv.buf + i * w->scv.strides[0],
                   w->scv.strides[1], chosen);
    for (Py_ssize_t b = 0; b < n; b++) {
        Py_ssize_t c = chosen[b];
        votes[b] = (char)(c >= 0 && WF_PARAM(w, 0, i, c) * TABLE_CELL(&w->f.x, b, c) +
                                            WF_PARAM(w, 1, i, c) >
                                        0.0);
    }
}

/* oza_univariate_frame(bitgen, X, targets, w, score, params, sc, sw, gradients, lr) -> None:
 * OzaBoostClassifier._learn_table over UnivariateMembers (weak_frame_learn,
 * univariate_member_step), for a table X (rows x width, width >= 2, NaN where a row lacks the
 * feature), the members' score (member x column) and params (coef, bias x member x column), in
 * place. `gradients` (member x row x column, the table's width) holds each candidate's log-loss
 * gradient on each row at the parameters it starts with, computed by the caller with numpy's
 * exp (`weak.univariate.gradients`; the C library's exp may differ from it in the last bit).
 * Sums as oza_stump_frame's. */
static PyObject *oza_univariate_frame(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(10, "oza_univariate_frame");
    const Py_ssize_t any3[3] = {-1, -1, -1};
    univariate_args u;
    u.lr = PyFloat_AsDouble(args[9]);
    if ((u.lr == -1.0 && PyErr_Occurred()) || get_matrix(args[8], &u.gradients, 3, any3,
                                                          "gradients"))
        return NULL;
    PyObject *result = weak_frame_learn(args, 2, "oza_univariate_frame", univariate_fits, 0,
                                        univariate_member_step, &u);
    PyBuffer_Release(&u.gradients);
    return result;
}

#undef WF_SCORE
#undef WF_PARAM

/* stump_frame_votes(score, params, X, out, probabilities) -> None: StumpMembers.batch_votes,
 * out[b, i] (a C-contiguous bool array, rows x members) being member i's vote on row b of the
 * table X (NaN where a row lacks a feature) by stump_chosen_votes, from the members' score
 * (member x column) and params (n_pos, n_neg, s_pos, s_neg x member x column); and, unless
 * `probabilities` is None, the chosen candidate's stump_probability there (a float64 array of
 * out's shape; 1/2 on a row with no feature), `_chosen_votes(soft=True)`. */
static PyObject *stump_frame_votes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "stump_frame_votes");
    const Py_ssize_t any2[2] = {-1, -1}, any3[3] = {4, -1, -1};
    Py_buffer scv, pv, xv, out, pr;
    Py_buffer *const held[] = {&scv, &pv, &xv, &out, &pr}; /* in the order acquired */
    int got = 0;
    PyObject *result = NULL;
    char *scratch = NULL;
    if (get_matrix(args[0], &scv, 2, any2, "score"))
        return NULL;
    got = 1;
    if (get_matrix(args[1], &pv, 3, any3, "params"))
        goto done;
    got = 2;
    if (get_matrix(args[2], &xv, 2, any2, "X"))
        goto done;
    got = 3;
    if (PyObject_GetBuffer(args[3], &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0)
        goto done;
    got = 4;
    Py_ssize_t n = xv.shape[0], width = xv.shape[1], members = scv.shape[0];
    double *probabilities = NULL;
    if (args[4] != Py_None) {
        const Py_ssize_t shape[2] = {n, members};
        if (get_matrix(args[4], &pr, 2, shape, "probabilities"))
            goto done;
        got = 5;
        if (pr.readonly || !PyBuffer_IsContiguous(&pr, 'C')) {
            PyErr_SetString(PyExc_TypeError, "probabilities must be a writable C array");
            goto done;
        }
        probabilities = pr.buf;
    }
    if (width < 1 || scv.shape[1] < width || pv.shape[1] != members || pv.shape[2] < width ||
        out.ndim != 2 || out.itemsize != 1 || out.format[0] != '?' || out.shape[0] != n ||
        out.shape[1] != members) {
        PyErr_SetString(PyExc_TypeError, "stump_frame_votes's arrays do not fit each other");
        goto done;
    }
    /* one block: each column's split and gap (width each), each row's chosen column (n), each
     * column's rule (width), whole rows (n) */
    scratch = PyMem_Malloc((2 * (size_t)width + (size_t)n) * sizeof(double) + (size_t)width +
                           (size_t)n + 1);
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *split = (double *)scratch, *gap = split + width;
    Py_ssize_t *chosen = (Py_ssize_t *)(gap + width);
    char *rule = (char *)(chosen + n), *whole = rule + width;
    whole_rows(&xv, n, width, whole);
#define PARAM(field, i, j)                                                                       \
    (*(const double *)((const char *)pv.buf + (field) * pv.strides[0] + (i) * pv.strides[1] +  \
                       (j) * pv.strides[2]))
    for (Py_ssize_t i = 0; i < members; i++) {
        const char *score = (const char *)scv.buf + i * scv.strides[0];
        char *votes = (char *)out.buf + i;
        for (Py_ssize_t j = 0; j < width; j++)
            stump_rule(PARAM(0, i, j), PARAM(1, i, j), PARAM(2, i, j), PARAM(3, i, j), &split[j],
                       &gap[j], &rule[j]);
        stump_chosen_votes(&xv, n, width, whole, score, scv.strides[1], split, gap, rule, votes,
                           members, chosen);
        for (Py_ssize_t b = 0; probabilities != NULL && b < n; b++) {
            Py_ssize_t c = chosen[b];
            probabilities[b * members + i] =
                c < 0 ? 0.5
                      : stump_probability(PARAM(0, i, c) + PARAM(1, i, c),
                                          *(const double *)(score + c * scv.strides[1]),
                                          votes[b * members]);
        }
    }
#undef PARAM
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(scratch);
    release_held(held, got);
    return result;
}

/* ---------------------------------------------------------------- online Platt scaling */

/* calibration/platt.py: _sigmoid, branching on the sign so exp never overflows. */
static double platt_sigmoid(double z)
{
    if (z >= 0.0)
        return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}

enum { P_LAM, P_SMOOTH, P_LOG, P_H0, P_STEP, P_RADIUS_SQ, P_RADIUS, P_EPS, P_LOGIT_MAX, P_LOGIT,
       P_N };
enum { T_A, T_B, T_C11, T_C12, T_C22, T_NPOS, T_NNEG, T_N };

/* A tuple of `n` numbers (bools as 0 and 1) as doubles: a calibrator's constants or state. */
static int tuple_doubles(PyObject *tuple, Py_ssize_t n, double *c, const char *name)
{
    if (!PyTuple_CheckExact(tuple) || PyTuple_GET_SIZE(tuple) != n) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of %zd items", name, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, i);
        c[i] = PyBool_Check(item) ? (double)(item == Py_True) : PyFloat_AsDouble(item);
        if (c[i] == -1.0 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* The first `n` items of a list (checked to hold them) as doubles. */
static int list_doubles(PyObject *list, Py_ssize_t n, double *out)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (get_double(list, i, &out[i]))
            return -1;
    return 0;
}

/* A checked (score, label) pair: the score as a double, the label as 1 (positive) or 0. */
static int read_pair(PyObject *score, PyObject *label, double *s, int *positive)
{
    *s = PyFloat_AsDouble(score);
    if (*s == -1.0 && PyErr_Occurred())
        return -1;
    *positive = PyObject_IsTrue(label);
    return *positive < 0 ? -1 : 0;
}

/* Two lists of one length: the scores and classes of a minibatch's checked pairs. */
static int check_pairs(PyObject *scores, PyObject *positives)
{
    if (!PyList_CheckExact(scores) || !PyList_CheckExact(positives) ||
        PyList_GET_SIZE(scores) != PyList_GET_SIZE(positives)) {
        PyErr_SetString(PyExc_TypeError, "scores and positives must be lists of one length");
        return -1;
    }
    return 0;
}

/* The i-th pair of those lists (`read_pair`). */
static int pair_at(PyObject *scores, PyObject *positives, Py_ssize_t i, double *s,
                   int *positive)
{
    return read_pair(PyList_GET_ITEM(scores, i), PyList_GET_ITEM(positives, i), s, positive);
}

/* The constants tuple of an OnlinePlattCalibrator (its `_consts`) as doubles. */
static int platt_consts(PyObject *consts, double *c)
{
    return tuple_doubles(consts, P_N, c, "consts");
}

/* _feature: the logit of the score clipped to [eps, 1 - eps], or the score itself. */
static double platt_feature(double s, const double *c)
{
    if (c[P_LOGIT] == 0.0)
        return s;
    if (s <= c[P_EPS])
        return -c[P_LOGIT_MAX];
    if (s >= 1.0 - c[P_EPS])
        return c[P_LOGIT_MAX];
    return log(s) - log1p(-s);
}

/* platt_predict(theta, consts, score): Platt's map of a checked score. */
static PyObject *platt_predict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "platt_predict");
    double c[P_N], a, b, s;
    if (check_list(args[0], T_N, "theta") || platt_consts(args[1], c) ||
        get_double(args[0], T_A, &a) || get_double(args[0], T_B, &b))
        return NULL;
    s = PyFloat_AsDouble(args[2]);
    if (s == -1.0 && PyErr_Occurred())
        return NULL;
    return PyFloat_FromDouble(platt_sigmoid(-(a * platt_feature(s, c) + b)));
}

/* The scores and out arrays of a *_predict_many: float64, one length. */
static const buffer_spec many_specs[2] = {{'d', 0, "scores"}, {'d', 1, "out"}};

/* platt_predict_many(theta, consts, scores, out): platt_predict of each score of a float64
 * array, into out (the same floats as one by one). */
static PyObject *platt_predict_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(4, "platt_predict_many");
    double c[P_N], a, b;
    Py_buffer views[2];
    Py_ssize_t n = -1;
    if (check_list(args[0], T_N, "theta") || platt_consts(args[1], c) ||
        get_double(args[0], T_A, &a) || get_double(args[0], T_B, &b) ||
        get_buffers(args + 2, many_specs, 2, views, &n))
        return NULL;
    const double *scores = views[0].buf;
    double *out = views[1].buf;
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = platt_sigmoid(-(a * platt_feature(scores[i], c) + b));
    release_buffers(views, 2);
    Py_RETURN_NONE;
}

/* platt_predict_pair(theta, other, consts, scores, out, other_out): platt_predict_many of two
 * calibrators of the same constants, each score's feature taken once. */
static PyObject *platt_predict_pair(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(6, "platt_predict_pair");
    static const buffer_spec specs[3] = {{'d', 0, "scores"}, {'d', 1, "out"},
                                         {'d', 1, "other_out"}};
    double c[P_N], a, b, a2, b2;
    Py_buffer views[3];
    Py_ssize_t n = -1;
    if (check_list(args[0], T_N, "theta") || check_list(args[1], T_N, "other") ||
        platt_consts(args[2], c) || get_double(args[0], T_A, &a) ||
        get_double(args[0], T_B, &b) || get_double(args[1], T_A, &a2) ||
        get_double(args[1], T_B, &b2) || get_buffers(args + 3, specs, 3, views, &n))
        return NULL;
    const double *scores = views[0].buf;
    double *out = views[1].buf, *other_out = views[2].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        double u = platt_feature(scores[i], c);
        out[i] = platt_sigmoid(-(a * u + b));
        other_out[i] = platt_sigmoid(-(a2 * u + b2));
    }
    release_buffers(views, 3);
    Py_RETURN_NONE;
}

/* One Online Newton Step (or Gauss-Newton step) of the state t (theta's doubles) by a checked
 * (score, label), in place: platt.py's platt_learn; `project` is _project_ball, called back
 * for the rare step that leaves the ball. -1 with an exception set if it fails. */
static int platt_step(double *t, const double *c, double score, int positive, PyObject *project)
{
    double u = platt_feature(score, c), lam = c[P_LAM], target;
    double A = t[T_A], B = t[T_B], n_pos = t[T_NPOS] * lam, n_neg = t[T_NNEG] * lam;
    if (positive) {
        n_pos += 1.0;
        target = c[P_SMOOTH] != 0.0 ? (n_pos + 1.0) / (n_pos + 2.0) : 1.0;
    } else {
        n_neg += 1.0;
        target = c[P_SMOOTH] != 0.0 ? 1.0 / (n_neg + 2.0) : 0.0;
    }
    double p = platt_sigmoid(-(A * u + B)), r, w;
    if (c[P_LOG] != 0.0) {
        r = w = target - p;
    } else {
        w = p * (1.0 - p);
        r = (target - p) * w;
    }
    double ww = w * w;
    double c11 = lam * t[T_C11] + ww * u * u;
    double c12 = lam * t[T_C12] + ww * u;
    double c22 = lam * t[T_C22] + ww;
    double h0 = c[P_H0], radius = c[P_RADIUS];
    double h11 = h0 + c11, h12 = c12, h22 = h0 + c22;
    double det = h11 * h22 - h12 * h12;
    double k = c[P_STEP] * r / det;
    A -= k * (h22 * u - h12);
    B -= k * (h11 - h12 * u);
    if (A * A + B * B > c[P_RADIUS_SQ]) {
        PyObject *ab = PyObject_CallFunction(project, "dddddd", A, B, h11, h12, h22, radius);
        if (ab == NULL)
            return -1;
        if (!PyTuple_Check(ab) || PyTuple_GET_SIZE(ab) != 2) {
            Py_DECREF(ab);
            PyErr_SetString(PyExc_TypeError, "project must return (A, B)");
            return -1;
        }
        A = PyFloat_AsDouble(PyTuple_GET_ITEM(ab, 0));
        B = PyFloat_AsDouble(PyTuple_GET_ITEM(ab, 1));
        Py_DECREF(ab);
        if (PyErr_Occurred())
            return -1;
    }
    if (A > 0.0) {
        double b = B + h12 * A / h22;
        b = -radius > b ? -radius : b; /* max(b, -radius) */
        B = radius < b ? radius : b;   /* min(b, radius) */
        A = 0.0;
    }
    t[T_A] = A, t[T_B] = B, t[T_C11] = c11, t[T_C12] = c12, t[T_C22] = c22;
    t[T_NPOS] = n_pos, t[T_NNEG] = n_neg;
    return 0;
}

/* Write the state t back into the list theta. */
static int platt_store(PyObject *theta, const double *t)
{
    for (Py_ssize_t i = 0; i < T_N; i++)
        if (set_double(theta, i, t[i]))
            return -1;
    return 0;
}

/* platt_learn(theta, consts, score, positive, project): platt.py's platt_learn, one step of
 * theta in place (`platt_step`). */
static PyObject *platt_learn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "platt_learn");
    PyObject *theta = args[0];
    double c[P_N], t[T_N];
    double score;
    int positive;
    if (check_list(theta, T_N, "theta") || platt_consts(args[1], c) ||
        list_doubles(theta, T_N, t) || read_pair(args[2], args[3], &score, &positive) ||
        platt_step(t, c, score, positive, args[4]) || platt_store(theta, t))
        return NULL;
    Py_RETURN_NONE;
}

/* platt_learn_many(theta, consts, scores, positives, project): platt.py's platt_learn_many,
 * `platt_step` on each checked pair of the lists in order, theta read once and written once
 * (left as it was if a step fails). */
static PyObject *platt_learn_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "platt_learn_many");
    PyObject *theta = args[0], *scores = args[2], *positives = args[3];
    double c[P_N], t[T_N];
    if (check_list(theta, T_N, "theta") || platt_consts(args[1], c) ||
        list_doubles(theta, T_N, t) || check_pairs(scores, positives))
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(scores); i++) {
        double score;
        int positive;
        if (pair_at(scores, positives, i, &score, &positive) ||
            platt_step(t, c, score, positive, args[4]))
            return NULL;
    }
    if (platt_store(theta, t))
        return NULL;
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- online beta calibration */

enum { B_EPS, B_LAM, B_H0, B_STEP, B_RADIUS, B_N };

/* calibration/beta.py: _expit, scipy's expit of a double (1 / inf is 0). */
static double beta_expit(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

/* _features: (ln s, -ln(1 - s)) of the score clipped to [eps, 1 - eps], as min(max(s, eps),
 * 1 - eps) picks. */
static void beta_features(double s, double eps, double *u, double *v)
{
    double high = 1.0 - eps;
    s = eps > s ? eps : s;
    s = high < s ? high : s;
    *u = log(s);
    *v = -log1p(-s);
}

/* beta_predict(theta, consts, score): the beta map of a checked score. */
static PyObject *beta_predict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "beta_predict");
    double t[3], c[B_N], u, v;
    if (tuple_doubles(args[0], 3, t, "theta") || tuple_doubles(args[1], B_N, c, "consts"))
        return NULL;
    double s = PyFloat_AsDouble(args[2]);
    if (s == -1.0 && PyErr_Occurred())
        return NULL;
    beta_features(s, c[B_EPS], &u, &v);
    return PyFloat_FromDouble(beta_expit(t[0] * u + t[1] * v + t[2]));
}

/* beta_predict_many(theta, consts, scores, out): beta_predict of each score of a float64
 * array, into out (the same floats as one by one; numpy's log may differ in the last bit). */
static PyObject *beta_predict_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(4, "beta_predict_many");
    double t[3], c[B_N], u, v;
    Py_buffer views[2];
    Py_ssize_t n = -1;
    if (tuple_doubles(args[0], 3, t, "theta") || tuple_doubles(args[1], B_N, c, "consts") ||
        get_buffers(args + 2, many_specs, 2, views, &n))
        return NULL;
    const double *scores = views[0].buf;
    double *out = views[1].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        beta_features(scores[i], c[B_EPS], &u, &v);
        out[i] = beta_expit(t[0] * u + t[1] * v + t[2]);
    }
    release_buffers(views, 2);
    Py_RETURN_NONE;
}

/* _solve3: H^{-1} g for the symmetric H of upper triangle h, by cofactors. */
static void beta_solve3(const double *h, const double *g, double *x)
{
    double a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5];
    double k0 = d * f - e * e, k1 = c * e - b * f, k2 = b * e - c * d;
    double k3 = a * f - c * c, k4 = b * c - a * e, k5 = a * d - b * b;
    double det = a * k0 + b * k1 + c * k2;
    x[0] = (k0 * g[0] + k1 * g[1] + k2 * g[2]) / det;
    x[1] = (k1 * g[0] + k3 * g[1] + k4 * g[2]) / det;
    x[2] = (k2 * g[0] + k4 * g[1] + k5 * g[2]) / det;
}

/* _project_orthant: the point of {a >= 0, b >= 0} nearest to theta in the H-norm, in place
 * (the same candidates, in the same order, as the Python). */
static void beta_project(double *theta, const double *h)
{
    double a = theta[0], b = theta[1], c = theta[2];
    if (a >= 0.0 && b >= 0.0)
        return;
    double h00 = h[0], h01 = h[1], h02 = h[2], h11 = h[3], h12 = h[4], h22 = h[5];
    double cand[3][3], da, db, dc, det;
    da = -a;
    det = h11 * h22 - h12 * h12;
    db = -(h22 * h01 - h12 * h02) * da / det;
    dc = -(h11 * h02 - h12 * h01) * da / det;
    cand[0][0] = 0.0, cand[0][1] = b + db, cand[0][2] = c + dc;
    db = -b;
    det = h00 * h22 - h02 * h02;
    da = -(h22 * h01 - h02 * h12) * db / det;
    dc = -(h00 * h12 - h02 * h01) * db / det;
    cand[1][0] = a + da, cand[1][1] = 0.0, cand[1][2] = c + dc;
    da = -a, db = -b;
    cand[2][0] = 0.0, cand[2][1] = 0.0, cand[2][2] = c - (h02 * da + h12 * db) / h22;
    double best[3] = {0.0, 0.0, c}, best_dist = INFINITY;
    for (int i = 0; i < 3; i++) {
        const double *x = cand[i];
        if (x[0] < 0.0 || x[1] < 0.0)
            continue;
        double d0 = x[0] - a, d1 = x[1] - b, d2 = x[2] - c;
        double dist = h00 * d0 * d0 + h11 * d1 * d1 + h22 * d2 * d2 +
                      2.0 * (h01 * d0 * d1 + h02 * d0 * d2 + h12 * d1 * d2);
        if (dist < best_dist) {
            best[0] = x[0], best[1] = x[1], best[2] = x[2];
            best_dist = dist;
        }
    }
    theta[0] = best[0], theta[1] = best[1], theta[2] = best[2];
}

/* One Online Newton Step of (a, b, c) = t and the curvature cc by a checked (score, label),
 * in place: beta.py's beta_learn. */
static void beta_step(double *t, double *cc, const double *c, double score, int positive)
{
    double u, v;
    beta_features(score, c[B_EPS], &u, &v);
    double r = beta_expit(t[0] * u + t[1] * v + t[2]) - (positive ? 1.0 : 0.0);
    double g[3] = {r * u, r * v, r};
    double outer[6] = {g[0] * g[0], g[0] * g[1], g[0] * g[2],
                       g[1] * g[1], g[1] * g[2], g[2] * g[2]};
    double lam = c[B_LAM], h0 = c[B_H0], k = c[B_STEP], radius = c[B_RADIUS], step[3];
    for (int i = 0; i < 6; i++)
        cc[i] = lam * cc[i] + outer[i];
    double h[6] = {cc[0] + h0, cc[1], cc[2], cc[3] + h0, cc[4], cc[5] + h0};
    beta_solve3(h, g, step);
    double theta[3] = {t[0] - k * step[0], t[1] - k * step[1], t[2] - k * step[2]};
    beta_project(theta, h);
    double norm = sqrt(theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2]);
    if (norm > radius)
        for (int i = 0; i < 3; i++)
            theta[i] = theta[i] * radius / norm;
    t[0] = theta[0], t[1] = theta[1], t[2] = theta[2];
}

/* The curvature back into its list, and the new theta as a tuple. */
static PyObject *beta_store(PyObject *curvature, const double *cc, const double *t)
{
    for (Py_ssize_t i = 0; i < 6; i++)
        if (set_double(curvature, i, cc[i]))
            return NULL;
    return Py_BuildValue("(ddd)", t[0], t[1], t[2]);
}

/* beta_learn(theta, curvature, consts, score, positive): beta.py's beta_learn, one Online
 * Newton Step (`beta_step`): the new theta, the curvature list updated in place. */
static PyObject *beta_learn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "beta_learn");
    PyObject *curvature = args[1];
    double t[3], c[B_N], cc[6];
    double score;
    int positive;
    if (tuple_doubles(args[0], 3, t, "theta") || check_list(curvature, 6, "curvature") ||
        tuple_doubles(args[2], B_N, c, "consts") || list_doubles(curvature, 6, cc) ||
        read_pair(args[3], args[4], &score, &positive))
        return NULL;
    beta_step(t, cc, c, score, positive);
    return beta_store(curvature, cc, t);
}

/* beta_learn_many(theta, curvature, consts, scores, positives): beta.py's beta_learn_many,
 * `beta_step` by each checked pair of the lists in order: the new theta, the curvature list
 * updated in place once (left as it was if a pair cannot be read). */
static PyObject *beta_learn_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "beta_learn_many");
    PyObject *curvature = args[1], *scores = args[3], *positives = args[4];
    double t[3], c[B_N], cc[6];
    if (tuple_doubles(args[0], 3, t, "theta") || check_list(curvature, 6, "curvature") ||
        tuple_doubles(args[2], B_N, c, "consts") || list_doubles(curvature, 6, cc) ||
        check_pairs(scores, positives))
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(scores); i++) {
        double score;
        int positive;
        if (pair_at(scores, positives, i, &score, &positive))
            return NULL;
        beta_step(t, cc, c, score, positive);
    }
    return beta_store(curvature, cc, t);
}

/* ---------------------------------------------------------------- pool adjacent violators */

/* calibration/base.py: Blocks._push on arrays holding `*m` blocks: push one, then pool while
 * the mean before it is higher; whether it pooled. `*low`: the first block changed so far. */
static int pav_push(Py_ssize_t *starts, double *sums, double *weights, Py_ssize_t *m,
                    Py_ssize_t *low, Py_ssize_t start, double total, double weight)
{
    Py_ssize_t n = *m;
    starts[n] = start, sums[n] = total, weights[n] = weight;
    n += 1;
    int pooled = 0;
    while (n > 1 && sums[n - 2] * weights[n - 1] > sums[n - 1] * weights[n - 2]) {
        sums[n - 2] += sums[n - 1];
        weights[n - 2] += weights[n - 1];
        n -= 1;
        pooled = 1;
    }
    *m = n;
    if (n - 1 < *low)
        *low = n - 1;
    return pooled;
}

/* Write the blocks into the lists, which held `n`: [0, low) are as they were, [low, m - kept)
 * are new (from the arrays), and the last `kept` are the lists' own last `kept` items, moved
 * (a block the scan pushed whole and left apart: not rebuilt). */
static int pav_store(PyObject *lists[3], Py_ssize_t n, Py_ssize_t low, Py_ssize_t m,
                     Py_ssize_t kept, const Py_ssize_t *s, const double *t, const double *w)
{
    Py_ssize_t fresh = m - kept - low;
    for (int j = 0; j < 3; j++) {
        PyObject *list = lists[j];
        if (m == n) { /* the kept blocks are where they were */
            for (Py_ssize_t i = low; i < low + fresh; i++) {
                PyObject *item = j == 0   ? PyLong_FromSsize_t(s[i])
                                 : j == 1 ? PyFloat_FromDouble(t[i])
                                          : PyFloat_FromDouble(w[i]);
                if (item == NULL)
                    return -1;
                PyObject *old = PyList_GET_ITEM(list, i);
                PyList_SET_ITEM(list, i, item);
                Py_DECREF(old);
            }
            continue;
        }
        PyObject *segment = PyList_New(fresh + kept);
        if (segment == NULL)
            return -1;
        for (Py_ssize_t i = 0; i < fresh; i++) {
            Py_ssize_t at = low + i;
            PyObject *item = j == 0   ? PyLong_FromSsize_t(s[at])
                             : j == 1 ? PyFloat_FromDouble(t[at])
                                      : PyFloat_FromDouble(w[at]);
            if (item == NULL) {
                Py_DECREF(segment);
                return -1;
            }
            PyList_SET_ITEM(segment, i, item);
        }
        for (Py_ssize_t i = 0; i < kept; i++)
            PyList_SET_ITEM(segment, fresh + i, Py_NewRef(PyList_GET_ITEM(list, n - kept + i)));
        int failed = PyList_SetSlice(list, low, n, segment);
        Py_DECREF(segment);
        if (failed)
            return -1;
    }
    return 0;
}

#define PAV_STACK 256

/* pav_update(starts, sums, weights, position, values, value_weights): Blocks.update, the
 * blocks re-fitted in place after the value or weight of `position` changed: its block's
 * positions scanned again, then the blocks after it pushed whole until one stays apart. */
static PyObject *pav_update(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(6, "pav_update");
    PyObject *lists[3] = {args[0], args[1], args[2]};
    PyObject *values = args[4], *value_weights = args[5];
    Py_ssize_t n = PyList_CheckExact(lists[0]) ? PyList_GET_SIZE(lists[0]) : -1;
    Py_ssize_t size = PyList_CheckExact(values) ? PyList_GET_SIZE(values) : -1;
    if (n < 1 || size < 1) {
        PyErr_SetString(PyExc_TypeError, "starts and values must be non-empty lists");
        return NULL;
    }
    if (check_list(lists[1], n, "sums") || check_list(lists[2], n, "weights") ||
        check_list(value_weights, size, "value_weights"))
        return NULL;
    Py_ssize_t position = PyLong_AsSsize_t(args[3]);
    if (position == -1 && PyErr_Occurred())
        return NULL;
    /* the scan's stack holds at most the old blocks and the changed block's positions; the
     * old blocks after the changed one wait beyond it */
    Py_ssize_t cap = 2 * (n + size);
    Py_ssize_t s_stack[PAV_STACK], *s = s_stack;
    double t_stack[PAV_STACK], w_stack[PAV_STACK], *t = t_stack, *w = w_stack;
    PyObject *result = NULL;
    if (cap > PAV_STACK) {
        s = PyMem_Malloc(cap * sizeof(Py_ssize_t));
        t = PyMem_Malloc(cap * sizeof(double));
        w = PyMem_Malloc(cap * sizeof(double));
        if (s == NULL || t == NULL || w == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    Py_ssize_t k = 0; /* bisect_right(starts, position) - 1 */
    for (Py_ssize_t i = 0; i < n; i++) {
        s[i] = PyLong_AsSsize_t(PyList_GET_ITEM(lists[0], i));
        if ((s[i] == -1 && PyErr_Occurred()) || get_double(lists[1], i, &t[i]) ||
            get_double(lists[2], i, &w[i]))
            goto done;
        if (s[i] <= position)
            k = i;
    }
    Py_ssize_t start = s[k], end = k + 1 < n ? s[k + 1] : size;
    if (start < 0 || end > size || start >= end) {
        PyErr_SetString(PyExc_ValueError, "the blocks do not cover the values");
        goto done;
    }
    Py_ssize_t tail = n - k - 1, *ts = s + n + size;
    double *tt = t + n + size, *tw = w + n + size;
    memcpy(ts, s + k + 1, tail * sizeof(Py_ssize_t));
    memcpy(tt, t + k + 1, tail * sizeof(double));
    memcpy(tw, w + k + 1, tail * sizeof(double));
    Py_ssize_t m = k, low = k, kept = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        double v, vw;
        if (get_double(values, i, &v) || get_double(value_weights, i, &vw))
            goto done;
        pav_push(s, t, w, &m, &low, i, v * vw, vw);
    }
    for (Py_ssize_t b = 0; b < tail; b++) {
        if (!pav_push(s, t, w, &m, &low, ts[b], tt[b], tw[b])) {
            /* it and every block after it stay as they were */
            kept = tail - b;
            m += kept - 1;
            break;
        }
    }
    if (pav_store(lists, n, low, m, kept, s, t, w) == 0)
        result = Py_NewRef(Py_None);
done:
    if (s != s_stack) {
        PyMem_Free(s);
        PyMem_Free(t);
        PyMem_Free(w);
    }
    return result;
}

/* histogram_pool(counts, positives, score_sums, centres, factor, prior): histogram.py's
 * histogram_pool, every bin with weight's rate, weight and mean score, and the Pool Adjacent
 * Violators blocks over the rates, from scratch: (rates, weights, means, used, starts, sums,
 * block_weights). */
static PyObject *histogram_pool(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(6, "histogram_pool");
    Py_ssize_t bins = PyList_CheckExact(args[3]) ? PyList_GET_SIZE(args[3]) : -1;
    if (bins < 1) {
        PyErr_SetString(PyExc_TypeError, "centres must be a non-empty list");
        return NULL;
    }
    if (check_list(args[0], bins, "counts") || check_list(args[1], bins, "positives") ||
        check_list(args[2], bins, "score_sums"))
        return NULL;
    double factor = PyFloat_AsDouble(args[4]), prior = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred())
        return NULL;
    PyObject *out[7] = {NULL};
    PyObject *result = NULL;
    Py_ssize_t *s = PyMem_Malloc(bins * sizeof(Py_ssize_t));
    double *t = PyMem_Malloc(bins * sizeof(double)), *w = PyMem_Malloc(bins * sizeof(double));
    if (s == NULL || t == NULL || w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < 4; i++)
        if ((out[i] = PyList_New(0)) == NULL)
            goto done;
    Py_ssize_t m = 0, low = 0, used = 0;
    for (Py_ssize_t j = 0; j < bins; j++) {
        double count, positive, score_sum, centre;
        if (get_double(args[0], j, &count) || get_double(args[1], j, &positive) ||
            get_double(args[2], j, &score_sum) || get_double(args[3], j, &centre))
            goto done;
        double n = count * factor + prior;
        if (n <= 0.0)
            continue;
        double rate = (positive * factor + prior * centre) / n;
        double mean = (score_sum * factor + prior * centre) / n;
        PyObject *items[4] = {PyFloat_FromDouble(rate), PyFloat_FromDouble(n),
                              PyFloat_FromDouble(mean), PyLong_FromSsize_t(j)};
        int failed = 0;
        for (int i = 0; i < 4; i++) {
            failed = failed || items[i] == NULL || PyList_Append(out[i], items[i]);
            Py_XDECREF(items[i]);
        }
        if (failed)
            goto done;
        pav_push(s, t, w, &m, &low, used, rate * n, n);
        used += 1;
    }
    for (int i = 4; i < 7; i++)
        if ((out[i] = PyList_New(m)) == NULL)
            goto done;
    for (Py_ssize_t b = 0; b < m; b++) {
        PyObject *items[3] = {PyLong_FromSsize_t(s[b]), PyFloat_FromDouble(t[b]),
                              PyFloat_FromDouble(w[b])};
        for (int i = 0; i < 3; i++) {
            if (items[i] == NULL) {
                for (int q = i + 1; q < 3; q++)
                    Py_XDECREF(items[q]);
                goto done;
            }
            PyList_SET_ITEM(out[4 + i], b, items[i]);
        }
    }
    result = PyTuple_New(7);
    if (result != NULL)
        for (int i = 0; i < 7; i++) {
            PyTuple_SET_ITEM(result, i, out[i]);
            out[i] = NULL;
        }
done:
    for (int i = 0; i < 7; i++)
        Py_XDECREF(out[i]);
    PyMem_Free(s);
    PyMem_Free(t);
    PyMem_Free(w);
    return result;
}

/* bisect.bisect_right over a list of numbers (floats, or ints: bins and positions, exact as
 * doubles): the first index whose item is above x. */
static int bisect_right(PyObject *list, double x, Py_ssize_t *out)
{
    Py_ssize_t lo = 0, hi = PyList_GET_SIZE(list);
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        double v;
        if (get_double(list, mid, &v))
            return -1;
        if (x < v)
            hi = mid;
        else
            lo = mid + 1;
    }
    *out = lo;
    return 0;
}

/* Blocks.value: the fitted value at `position`, the block whose start is the last <= it. */
static int pav_value(PyObject *starts, PyObject *sums, PyObject *weights, Py_ssize_t position,
                     double *out)
{
    Py_ssize_t lo;
    if (bisect_right(starts, (double)position, &lo))
        return -1;
    double total, weight;
    if (lo < 1 || lo > PyList_GET_SIZE(sums) || lo > PyList_GET_SIZE(weights)) {
        PyErr_SetString(PyExc_ValueError, "no block holds the position");
        return -1;
    }
    if (get_double(sums, lo - 1, &total) || get_double(weights, lo - 1, &weight))
        return -1;
    *out = total / weight;
    return 0;
}

/* Whether the blocks' three lists and the fourth argument are lists (`none_ok`: the fourth,
 * histogram's `used`, may be None; else it is isotonic's means, not empty). */
static int check_maps(PyObject *const *args, int none_ok, const char *message)
{
    for (int i = 0; i < 4; i++)
        if (!PyList_CheckExact(args[i]) && !(i == 3 && none_ok && args[i] == Py_None)) {
            PyErr_SetString(PyExc_TypeError, message);
            return -1;
        }
    if (!none_ok && PyList_GET_SIZE(args[3]) == 0) {
        PyErr_SetString(PyExc_TypeError, message);
        return -1;
    }
    return 0;
}

/* histogram.py's histogram_predict: the pooled rate of the score's bin (an empty bin takes its
 * lower neighbour's: `used`, the bins with weight, or None for all). */
static int histogram_value(PyObject *const *maps, Py_ssize_t bins, double score, double *out)
{
    PyObject *used = maps[3];
    double scaled = score * (double)bins;
    Py_ssize_t j = (Py_ssize_t)scaled; /* int(): truncation, the score being in [0, 1] */
    j = j < bins ? j : bins - 1;
    if (used != Py_None) { /* max(bisect_right(used, j) - 1, 0) */
        Py_ssize_t lo;
        if (bisect_right(used, (double)j, &lo))
            return -1;
        j = lo - 1 > 0 ? lo - 1 : 0;
    }
    return pav_value(maps[0], maps[1], maps[2], j, out);
}

/* isotonic.py's isotonic_predict: the pooled rates interpolated linearly between the bins'
 * mean scores (maps[3]). */
static int isotonic_value(PyObject *const *maps, double score, double *out)
{
    PyObject *starts = maps[0], *sums = maps[1], *weights = maps[2], *xs = maps[3];
    double x0, x1, y0, y1;
    Py_ssize_t i, n = PyList_GET_SIZE(xs);
    if (bisect_right(xs, score, &i))
        return -1;
    if (i == 0 || i == n)
        return pav_value(starts, sums, weights, i == 0 ? 0 : n - 1, out);
    if (get_double(xs, i - 1, &x0) || get_double(xs, i, &x1) ||
        pav_value(starts, sums, weights, i - 1, &y0) || pav_value(starts, sums, weights, i, &y1))
        return -1;
    *out = y0 + (y1 - y0) * (score - x0) / (x1 - x0); /* bisect_right: x0 <= score < x1 */
    return 0;
}

#define HISTOGRAM_LISTS "the blocks must be lists, used a list or None"
#define ISOTONIC_LISTS "the blocks and means must be lists, means non-empty"

/* histogram_predict(starts, sums, weights, used, n_bins, score): histogram_value. */
static PyObject *histogram_predict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(6, "histogram_predict");
    double score, value;
    Py_ssize_t bins;
    if (check_maps(args, 1, HISTOGRAM_LISTS))
        return NULL;
    bins = PyLong_AsSsize_t(args[4]);
    score = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred() || histogram_value(args, bins, score, &value))
        return NULL;
    return PyFloat_FromDouble(value);
}

/* isotonic_predict(starts, sums, weights, means, score): isotonic_value. */
static PyObject *isotonic_predict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "isotonic_predict");
    double score, value;
    if (check_maps(args, 0, ISOTONIC_LISTS))
        return NULL;
    score = PyFloat_AsDouble(args[4]);
    if ((score == -1.0 && PyErr_Occurred()) || isotonic_value(args, score, &value))
        return NULL;
    return PyFloat_FromDouble(value);
}

/* histogram_predict_many(starts, sums, weights, used, n_bins, scores, out): histogram_value
 * of each score of a float64 array, into out. */
static PyObject *histogram_predict_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(7, "histogram_predict_many");
    Py_buffer views[2];
    Py_ssize_t n = -1, bins;
    if (check_maps(args, 1, HISTOGRAM_LISTS))
        return NULL;
    bins = PyLong_AsSsize_t(args[4]);
    if ((bins == -1 && PyErr_Occurred()) || get_buffers(args + 5, many_specs, 2, views, &n))
        return NULL;
    const double *scores = views[0].buf;
    double *out = views[1].buf;
    int failed = 0;
    for (Py_ssize_t i = 0; i < n && !failed; i++)
        failed = histogram_value(args, bins, scores[i], &out[i]);
    release_buffers(views, 2);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

/* isotonic_predict_many(starts, sums, weights, means, scores, out): isotonic_value of each
 * score of a float64 array, into out. */
static PyObject *isotonic_predict_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(6, "isotonic_predict_many");
    Py_buffer views[2];
    Py_ssize_t n = -1;
    if (check_maps(args, 0, ISOTONIC_LISTS) || get_buffers(args + 4, many_specs, 2, views, &n))
        return NULL;
    const double *scores = views[0].buf;
    double *out = views[1].buf;
    int failed = 0;
    for (Py_ssize_t i = 0; i < n && !failed; i++)
        failed = isotonic_value(args, scores[i], &out[i]);
    release_buffers(views, 2);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- expert advice (EWA) */

#define EWA_FLOOR 1e-300 /* calibration/ewa.py: _FLOOR */
#define EWA_STACK 16 /* members whose arrays live on the stack */

/* math.fsum's sum of n finite doubles, correctly rounded: CPython's own algorithm
 * (Modules/mathmodule.c, Shewchuk's partials and its half-even correction), so the same
 * float as math.fsum (a correctly rounded sum is unique). `partials` holds n doubles. */
static double exact_sum(const double *values, Py_ssize_t count, double *partials)
{
    Py_ssize_t n = 0;
    double x, y, t, hi = 0.0, lo = 0.0, yr;
    for (Py_ssize_t v = 0; v < count; v++) {
        x = values[v];
        Py_ssize_t i = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            y = partials[j];
            if (fabs(x) < fabs(y)) {
                t = x;
                x = y;
                y = t;
            }
            hi = x + y;
            yr = hi - x;
            lo = y - yr;
            if (lo != 0.0)
                partials[i++] = lo;
            x = hi;
        }
        n = i;
        if (x != 0.0)
            partials[n++] = x;
    }
    hi = 0.0;
    if (n > 0) {
        hi = partials[--n];
        while (n > 0) {
            x = hi;
            y = partials[--n];
            hi = x + y;
            yr = hi - x;
            lo = y - yr;
            if (lo != 0.0)
                break;
        }
        if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
            y = lo * 2.0;
            x = hi + y;
            yr = x - hi;
            if (y == yr)
                hi = x;
        }
    }
    return hi;
}

/* ewa_learn(losses, weights, predictions, positive, forgetting, learning_rate, alpha):
 * ewa.py's ewa_learn, the members' discounted log-losses and the weights after a pair, both
 * lists in place; alpha None: no share. */
static PyObject *ewa_learn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(7, "ewa_learn");
    PyObject *losses = args[0], *weights = args[1], *predictions = args[2];
    Py_ssize_t count = PyList_CheckExact(losses) ? PyList_GET_SIZE(losses) : 0;
    if (count < 1) {
        PyErr_SetString(PyExc_TypeError, "losses must be a non-empty list");
        return NULL;
    }
    if (check_list(weights, count, "weights") || check_list(predictions, count, "predictions"))
        return NULL;
    int positive = PyObject_IsTrue(args[3]);
    double lam = PyFloat_AsDouble(args[4]), eta = PyFloat_AsDouble(args[5]), alpha = 0.0;
    int share = args[6] != Py_None;
    if (share)
        alpha = PyFloat_AsDouble(args[6]);
    if (positive < 0 || PyErr_Occurred())
        return NULL;
    /* the losses, the weights and the sum's partials: on the stack for a few members */
    double stack[3 * EWA_STACK], *L = stack;
    if (count > EWA_STACK && (L = PyMem_Malloc(3 * count * sizeof(double))) == NULL)
        return PyErr_NoMemory();
    double *W = L + count, *partials = W + count;
    PyObject *result = NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        double p, loss;
        if (get_double(predictions, k, &p) || get_double(losses, k, &loss))
            goto done;
        double q = positive ? p : 1.0 - p;
        q = EWA_FLOOR > q ? EWA_FLOOR : q; /* max(q, _FLOOR) */
        L[k] = lam * loss - log(q);
    }
    double best = L[0];
    for (Py_ssize_t k = 1; k < count; k++)
        best = L[k] < best ? L[k] : best;
    for (Py_ssize_t k = 0; k < count; k++)
        W[k] = exp(-eta * (L[k] - best));
    double total = exact_sum(W, count, partials);
    for (Py_ssize_t k = 0; k < count; k++)
        W[k] = W[k] / total;
    if (share) {
        for (Py_ssize_t k = 0; k < count; k++) {
            W[k] = (1.0 - alpha) * W[k] + alpha / (double)count;
            L[k] = -log(W[k]) / eta;
        }
    }
    for (Py_ssize_t k = 0; k < count; k++)
        if (set_double(losses, k, L[k]) || set_double(weights, k, W[k]))
            goto done;
    result = Py_NewRef(Py_None);
done:
    if (L != stack)
        PyMem_Free(L);
    return result;
}

/* ewa_predict(weights, predictions): ewa.py's ewa_predict, the weighted average of the
 * members' predictions, clipped to [0, 1]. */
static PyObject *ewa_predict(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(2, "ewa_predict");
    Py_ssize_t count = PyList_CheckExact(args[0]) ? PyList_GET_SIZE(args[0]) : -1;
    if (count < 0 || check_list(args[1], count, "predictions")) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "weights must be a list");
        return NULL;
    }
    double p = 0.0, w, q;
    for (Py_ssize_t k = 0; k < count; k++) {
        if (get_double(args[0], k, &w) || get_double(args[1], k, &q))
            return NULL;
        p += w * q;
    }
    p = 0.0 > p ? 0.0 : p;
    return PyFloat_FromDouble(1.0 < p ? 1.0 : p);
}

/* ---------------------------------------------------------------- the reward's losses */

#define LOSS_EPS 1e-15 /* reward.py: _LOG_EPS */
enum { LOSS_LOG, LOSS_BRIER, LOSS_COST }; /* reward.py: LOSSES, in order */

/* One example's loss (reward.py: _loss), its probability p, class and cost threshold t. */
static double example_loss(int loss, double p, int positive, double t)
{
    if (loss == LOSS_LOG) {
        p = fmin(fmax(p, LOSS_EPS), 1.0 - LOSS_EPS);
        return -log(positive ? p : 1.0 - p);
    }
    if (loss == LOSS_BRIER) {
        double d = p - (double)positive;
        return d * d;
    }
    return ((p > t) != positive) ? (positive ? 1.0 - t : t) : 0.0;
}

/* loss_means(loss, probabilities, positives, thresholds): reward.py's loss_means, a list of
 * each row's mean loss (math.fsum's correctly rounded sum over the row, divided by its length);
 * loss an index of LOSSES, positives a list of bools, thresholds a list of floats (cost) or
 * None. */
static PyObject *loss_means(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(4, "loss_means");
    long loss = PyLong_AsLong(args[0]);
    if (loss == -1 && PyErr_Occurred())
        return NULL;
    if (loss < LOSS_LOG || loss > LOSS_COST) {
        PyErr_Format(PyExc_ValueError, "loss must be 0, 1 or 2, got %ld", loss);
        return NULL;
    }
    PyObject *positives = args[2], *thresholds = args[3];
    Py_ssize_t any[2] = {-1, -1};
    Py_buffer view;
    if (get_matrix(args[1], &view, 2, any, "probabilities"))
        return NULL;
    Py_ssize_t rows = view.shape[0], n = view.shape[1];
    PyObject *result = NULL;
    double *values = NULL;
    int *classes = NULL;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "probabilities must have a column (an example)");
        goto done;
    }
    if (check_list(positives, n, "positives") ||
        (loss == LOSS_COST && check_list(thresholds, n, "thresholds")))
        goto done;
    values = PyMem_Malloc(3 * n * sizeof(double)); /* losses, partials, thresholds */
    classes = PyMem_Malloc(n * sizeof(int));
    if (values == NULL || classes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *partials = values + n, *t = values + 2 * n;
    for (Py_ssize_t i = 0; i < n; i++) {
        classes[i] = PyObject_IsTrue(PyList_GET_ITEM(positives, i));
        t[i] = 0.0;
        if (classes[i] < 0 || (loss == LOSS_COST && get_double(thresholds, i, &t[i])))
            goto done;
    }
    result = PyList_New(rows);
    for (Py_ssize_t r = 0; result != NULL && r < rows; r++) {
        const char *row = (const char *)view.buf + r * view.strides[0];
        for (Py_ssize_t i = 0; i < n; i++)
            values[i] = example_loss((int)loss, *(const double *)(row + i * view.strides[1]),
                                     classes[i], t[i]);
        PyObject *mean = PyFloat_FromDouble(exact_sum(values, n, partials) / (double)n);
        if (mean == NULL)
            Py_CLEAR(result);
        else
            PyList_SET_ITEM(result, r, mean);
    }
done:
    PyMem_Free(values);
    PyMem_Free(classes);
    PyBuffer_Release(&view);
    return result;
}

/* ---------------------------------------------------------------- copies */

static PyObject *ndarray_type; /* numpy.ndarray */
static PyObject *copy_name;    /* "copy" */

/* `value` copied one level deep if it is a numpy array, a list or a dict (state.one_level: its
 * `copy` method; a plain list or dict is copied directly), else `value` itself; a new
 * reference. */
static PyObject *one_level(PyObject *value)
{
    if (PyList_CheckExact(value))
        return PyList_GetSlice(value, 0, PyList_GET_SIZE(value));
    if (PyDict_CheckExact(value))
        return PyDict_Copy(value);
    if (PyList_Check(value) || PyDict_Check(value)
        || PyObject_TypeCheck(value, (PyTypeObject *)ndarray_type))
        return PyObject_CallMethodNoArgs(value, copy_name);
    Py_INCREF(value);
    return value;
}

/* target.name = getattr(source, name) (copied one level deep if `copy`) for each name of the
 * tuple `names`, in order, through object.__setattr__. */
static PyObject *set_attributes(PyObject *const *args, int copy)
{
    PyObject *names = args[2];
    if (!PyTuple_CheckExact(names)) {
        PyErr_SetString(PyExc_TypeError, "names must be a tuple of str");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_CheckExact(name)) {
            PyErr_SetString(PyExc_TypeError, "names must be a tuple of str");
            return NULL;
        }
        PyObject *value = PyObject_GetAttr(args[0], name);
        if (value != NULL && copy)
            Py_SETREF(value, one_level(value));
        if (value == NULL)
            return NULL;
        int failed = PyObject_GenericSetAttr(args[1], name, value);
        Py_DECREF(value);
        if (failed)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* share_attributes(source, target, names): object.__setattr__(target, name, getattr(source,
 * name)) for each name of a tuple, in order (Calibrator._copy_changing's loop); reads and
 * writes the attributes as Python does, so neither object's __dict__ is materialised. */
static PyObject *share_attributes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "share_attributes");
    return set_attributes(args, 0);
}

/* copy_attributes(source, target, names): share_attributes with each value copied one level
 * deep (state.copy_attributes: ArrayMembers.copy's loop). */
static PyObject *copy_attributes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "copy_attributes");
    return set_attributes(args, 1);
}

/* ---------------------------------------------------------------- feature dicts and tables */

/* Whether x is a dict whose values are all within [-limit, limit] and each an exact float or,
 * with `ints`, an exact int of magnitude at most 2^53, which a double holds exactly (so that
 * comparing it with the limit is Python's comparison of the int itself); anything else (another
 * type, NaN, inf, a value beyond the limit, a larger int, a bool, a string) answers 0 and Python
 * looks closer; -1 with an exception set if the limit is not a number. */
static int values_within(PyObject *const *args, int ints)
{
    double limit = PyFloat_AsDouble(args[1]);
    if (limit == -1.0 && PyErr_Occurred())
        return -1;
    if (!PyDict_CheckExact(args[0]))
        return 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(args[0], &pos, &key, &value)) {
        double v;
        if (PyFloat_CheckExact(value)) {
            v = PyFloat_AS_DOUBLE(value);
        } else if (ints && PyLong_CheckExact(value)) {
            int overflow = 0;
            long long n = PyLong_AsLongLongAndOverflow(value, &overflow);
            if (overflow || n > 9007199254740992LL || n < -9007199254740992LL)
                return 0;
            v = (double)n;
        } else {
            return 0;
        }
        if (!(v >= -limit && v <= limit)) /* NaN fails both */
            return 0;
    }
    return 1;
}

/* floats_within(x, limit): every value an exact float within the limit (`values_within`): the
 * array members' fast path (validation.plain_floats). */
static PyObject *floats_within(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(2, "floats_within");
    int ok = values_within(args, 0);
    return ok < 0 ? NULL : PyBool_FromLong(ok);
}

/* numbers_within(x, limit): every value an exact float or a small exact int (one-hot
 * indicators, counts) within the limit (`values_within`): validation.check_features's fast
 * path. */
static PyObject *numbers_within(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(2, "numbers_within");
    int ok = values_within(args, 1);
    return ok < 0 ? NULL : PyBool_FromLong(ok);
}

/* fill_rows(xs, keys, table) -> bool: ArrayMembers.rows's common case. When every x of the
 * list `xs` is a dict of exactly the keys of the list `keys`, each value an exact float that is
 * finite, row i of `table` (a C-contiguous float64 array of len(xs) rows) takes x_i's values in
 * `keys`' order in its last len(keys) columns, and the answer is True; otherwise False, and
 * Python makes the rows (a table it may have partly filled is then unused). */
static PyObject *fill_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "fill_rows");
    PyObject *xs = args[0], *keys = args[1];
    if (!PyList_CheckExact(xs) || !PyList_CheckExact(keys)) {
        PyErr_SetString(PyExc_TypeError, "xs and keys must be lists");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(xs), k = PyList_GET_SIZE(keys);
    Py_buffer view;
    if (PyObject_GetBuffer(args[2], &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0)
        return NULL;
    if (view.ndim != 2 || view.itemsize != 8 || view.format[0] != 'd' || view.shape[0] != n
        || view.shape[1] < k) {
        PyErr_SetString(PyExc_TypeError, "table must be a float64 array of len(xs) rows and at "
                                         "least len(keys) columns");
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_ssize_t width = view.shape[1], offset = width - k;
    double *out = view.buf;
    int ok = 1;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *x = PyList_GET_ITEM(xs, i);
        if (!PyDict_CheckExact(x) || PyDict_GET_SIZE(x) != k) {
            ok = 0;
            break;
        }
        double *row = out + i * width + offset;
        /* the usual row: the dict's own keys are `keys`, the same objects in the same order */
        Py_ssize_t position = 0, j = 0;
        PyObject *key, *value;
        while (j < k && PyDict_Next(x, &position, &key, &value) &&
               key == PyList_GET_ITEM(keys, j) && PyFloat_CheckExact(value) &&
               isfinite(PyFloat_AS_DOUBLE(value)))
            row[j++] = PyFloat_AS_DOUBLE(value);
        if (j == k)
            continue;
        for (j = 0; j < k; j++) {
            value = PyDict_GetItemWithError(x, PyList_GET_ITEM(keys, j));
            if (value == NULL) {
                if (PyErr_Occurred()) { /* an unhashable key, say */
                    PyBuffer_Release(&view);
                    return NULL;
                }
                ok = 0;
                break;
            }
            if (!PyFloat_CheckExact(value) || !isfinite(PyFloat_AS_DOUBLE(value))) {
                ok = 0;
                break;
            }
            row[j] = PyFloat_AS_DOUBLE(value);
        }
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(ok);
}

/* fill_columns(xs, columns, table, offset, strict) -> bool: the rows of dicts that hold only
 * some of the known features (one-hot indicators: each example names the few it has), which
 * fill_rows leaves to Python. `columns` maps a key to its column: row i of `table` (a
 * C-contiguous float64 array of len(xs) rows, or one row as a 1-d array) takes each value of x_i
 * at column offset + columns[key]; the cells of absent keys are left as the caller filled them
 * (0, or NaN before a scaler). A value must be an exact float that is finite, or an exact int
 * that a float holds (converted as float() does); a key not in `columns` answers False when
 * `strict` (ArrayMembers adds its column in Python), else is skipped (a frozen copy ignores a
 * feature it never saw). Anything else answers False, `table` then partly filled and unused. */
static PyObject *fill_columns(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "fill_columns");
    PyObject *xs = args[0], *columns = args[1];
    if (!PyList_CheckExact(xs) || !PyDict_CheckExact(columns)) {
        PyErr_SetString(PyExc_TypeError, "xs must be a list and columns a dict");
        return NULL;
    }
    Py_ssize_t offset = PyLong_AsSsize_t(args[3]);
    int strict = PyObject_IsTrue(args[4]);
    if ((offset == -1 && PyErr_Occurred()) || strict < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(xs);
    Py_buffer view;
    if (PyObject_GetBuffer(args[2], &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0)
        return NULL;
    if (view.ndim < 1 || view.ndim > 2 || view.itemsize != 8 || view.format[0] != 'd'
        || (view.ndim == 1 ? 1 : view.shape[0]) != n || offset < 0) {
        PyErr_SetString(PyExc_TypeError, "table must be a float64 array of len(xs) rows (or one "
                                         "row, 1-d) and offset an int >= 0");
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_ssize_t width = view.shape[view.ndim - 1];
    double *out = view.buf;
    int ok = 1;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        PyObject *x = PyList_GET_ITEM(xs, i);
        if (!PyDict_CheckExact(x)) {
            ok = 0;
            break;
        }
        double *row = out + i * width;
        Py_ssize_t position = 0;
        PyObject *key, *value;
        while (PyDict_Next(x, &position, &key, &value)) {
            PyObject *column = PyDict_GetItemWithError(columns, key);
            if (column == NULL) {
                if (PyErr_Occurred()) {
                    PyBuffer_Release(&view);
                    return NULL;
                }
                if (strict) {
                    ok = 0;
                    break;
                }
                continue;
            }
            Py_ssize_t j = PyLong_CheckExact(column) ? PyLong_AsSsize_t(column) : -1;
            if (j == -1 && PyErr_Occurred())
                PyErr_Clear();
            double v;
            if (PyFloat_CheckExact(value)) {
                v = PyFloat_AS_DOUBLE(value);
            } else if (PyLong_CheckExact(value)) {
                v = PyLong_AsDouble(value);
                if (v == -1.0 && PyErr_Occurred()) { /* beyond a float: Python's to refuse */
                    PyErr_Clear();
                    ok = 0;
                    break;
                }
            } else {
                ok = 0;
                break;
            }
            if (j < 0 || offset + j >= width || !isfinite(v)) {
                ok = 0;
                break;
            }
            row[offset + j] = v;
        }
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(ok);
}

/* vote_scores(margins, alphas, total, logistic, band, out) -> bool: boosting.table_scores for
 * logistic-regression members from their margins (a C-contiguous float64 table, a row per
 * example, a column per member): each member votes positive iff its margin > 0, row i's
 * positive weight is the running sum of vote * alpha over the members in order (numpy's
 * cumsum of the votes times the alphas: 0.0 * alpha where the vote is negative), and out[i] is
 * that sum over `total` or, `logistic`, the sigmoid of 2 (2 sum - total) (Nikolaou 2016,
 * Eq. 7.6, 7.7). A margin within `band` of 0 is River's tie, which Python settles: the answer is
 * then False and `out` unused; True otherwise. */
static PyObject *vote_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(6, "vote_scores");
    PyObject *alphas = args[1];
    double total = PyFloat_AsDouble(args[2]), band = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred())
        return NULL;
    int logistic = PyObject_IsTrue(args[3]);
    if (logistic < 0)
        return NULL;
    Py_buffer table;
    if (PyObject_GetBuffer(args[0], &table, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (table.ndim != 2 || table.itemsize != 8 || table.format[0] != 'd') {
        PyErr_SetString(PyExc_TypeError, "margins must be a 2-d float64 array");
        PyBuffer_Release(&table);
        return NULL;
    }
    Py_ssize_t n = table.shape[0], m = table.shape[1];
    double *w = malloc(sizeof(double) * (size_t)(m ? m : 1));
    if (w == NULL) {
        PyBuffer_Release(&table);
        return PyErr_NoMemory();
    }
    Py_buffer out;
    if (check_list(alphas, m, "alphas")) {
        free(w);
        PyBuffer_Release(&table);
        return NULL;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        if (get_double(alphas, j, &w[j])) {
            free(w);
            PyBuffer_Release(&table);
            return NULL;
        }
    }
    if (get_buffer(args[5], &out, 'd', &n, 1, "out")) {
        free(w);
        PyBuffer_Release(&table);
        return NULL;
    }
    const double *margins = table.buf;
    double *scores = out.buf;
    int ok = 1;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        const double *row = margins + i * m;
        double sum = 0.0;
        for (Py_ssize_t j = 0; j < m; j++) {
            double margin = row[j];
            if (fabs(margin) <= band) {
                ok = 0;
                break;
            }
            double vote = margin > 0.0 ? w[j] : 0.0 * w[j];
            sum = j ? sum + vote : vote;
        }
        if (!logistic) {
            scores[i] = sum / total;
            continue;
        }
        double z = 2.0 * (2.0 * sum - total), e = exp(-fabs(z));
        scores[i] = z >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
    }
    free(w);
    PyBuffer_Release(&out);
    PyBuffer_Release(&table);
    return PyBool_FromLong(ok);
}

/* linear_soft_scores(table, weights, alphas, out) -> None: LinearMembers.batch_soft_scores,
 * soft_score(alphas, margins, True) of each row of `table` (a row per example, its first
 * column the intercepts' 1), each member's margin the running sum of weights[i, j] * row[j]
 * from j = 0, as `linear_margins` sums one example's: the same floats as one row at a time. */
static PyObject *linear_soft_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(4, "linear_soft_scores");
    PyObject *alphas = args[2];
    Py_buffer tv, wv, out;
    const Py_ssize_t any[2] = {-1, -1};
    if (get_matrix(args[0], &tv, 2, any, "table"))
        return NULL;
    Py_ssize_t n = tv.shape[0], width = tv.shape[1];
    const Py_ssize_t shape[2] = {-1, width};
    if (get_matrix(args[1], &wv, 2, shape, "weights")) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    Py_ssize_t members = wv.shape[0];
    PyObject *result = NULL;
    double *w = NULL;
    if (check_list(alphas, members, "alphas"))
        goto release;
    if (get_buffer(args[3], &out, 'd', &n, 1, "out"))
        goto release;
    w = malloc(sizeof(double) * (size_t)(members ? members : 1));
    if (w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < members; i++)
        if (get_double(alphas, i, &w[i]))
            goto done;
    double *scores = out.buf;
    for (Py_ssize_t r = 0; r < n; r++) {
        const char *row = (const char *)tv.buf + r * tv.strides[0];
#define X(jj) (*(const double *)(row + (jj) * tv.strides[1]))
        double total = 0.0, positive = 0.0;
        for (Py_ssize_t i = 0; i < members; i++) {
            if (w[i] == 0.0)
                continue;
            const char *weights = (const char *)wv.buf + i * wv.strides[0];
#define W(jj) (*(const double *)(weights + (jj) * wv.strides[1]))
            double m = width ? W(0) * X(0) : 0.0;
            for (Py_ssize_t j = 1; j < width; j++)
                m += W(j) * X(j);
#undef W
            total += w[i];
            positive += w[i] * river_sigmoid(m);
        }
#undef X
        scores[r] = total != 0.0 ? positive / total : 0.5;
    }
    result = Py_NewRef(Py_None);
done:
    free(w);
    PyBuffer_Release(&out);
release:
    PyBuffer_Release(&wv);
    PyBuffer_Release(&tv);
    return result;
}

/* One value of an example as a float, as numpy converts it (a float, or an exact int that a float
 * holds: float(int)); 0 when it is anything else, which Python then handles. */
static int example_value(PyObject *value, double *out)
{
    if (PyFloat_Check(value)) {
        *out = PyFloat_AS_DOUBLE(value);
        return 1;
    }
    if (!PyLong_CheckExact(value))
        return 0;
    *out = PyLong_AsDouble(value);
    if (*out == -1.0 && PyErr_Occurred()) { /* too large for a float: Python says so */
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* linear_margins(x, keys, columns, weights, xa) -> (margins, votes, norm) or None:
 * LinearMembers.votes's arithmetic for one example, the numpy calls' overhead left out. When
 * every key of the dict `x` is a known column (`columns`: key -> position in the list `keys`)
 * and every value a float or an exact int, `xa` (a float64 array of len(keys) + 1, zeros where
 * `x` names no key) becomes [1, x's values by column], member i's margin is the running sum of
 * weights[i, j] * xa[j] from j = 0 (members/linear.py `_margins`: numpy's cumsum of the
 * products, the same floats), its vote River's (`river_vote`), and norm is xa's squared length
 * summed the same way. Otherwise None (a new key, a str, ...): Python's `vector` then says what
 * is wrong or adds the column. */
static PyObject *linear_margins(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "linear_margins");
    PyObject *x = args[0], *keys = args[1], *columns = args[2];
    if (!PyDict_CheckExact(x) || !PyList_CheckExact(keys) || !PyDict_CheckExact(columns)) {
        PyErr_SetString(PyExc_TypeError, "x and columns must be dicts and keys a list");
        return NULL;
    }
    Py_ssize_t k = PyList_GET_SIZE(keys), width = k + 1;
    Py_buffer wv, xv;
    const Py_ssize_t shape[2] = {-1, -1};
    if (get_matrix(args[3], &wv, 2, shape, "weights"))
        return NULL;
    if (get_buffer(args[4], &xv, 'd', &width, 1, "xa")) {
        PyBuffer_Release(&wv);
        return NULL;
    }
    PyObject *result = NULL;
    if (wv.shape[1] < width) {
        PyErr_SetString(PyExc_TypeError, "weights must have a column per key and one more");
        goto done;
    }
    double *xa = xv.buf;
    xa[0] = 1.0;
    Py_ssize_t position = 0, j = 0;
    PyObject *key, *value;
    /* the usual example: the dict's own keys are `keys`, the same objects in the same order */
    int usual = PyDict_GET_SIZE(x) == k;
    while (usual && j < k && PyDict_Next(x, &position, &key, &value) &&
           key == PyList_GET_ITEM(keys, j) && example_value(value, &xa[j + 1]))
        j++;
    if (!usual || j < k) {
        for (j = 1; j < width; j++)
            xa[j] = 0.0;
        position = 0;
        while (PyDict_Next(x, &position, &key, &value)) {
            PyObject *column = PyDict_GetItemWithError(columns, key);
            if (column == NULL) {
                if (!PyErr_Occurred())
                    result = Py_NewRef(Py_None);
                goto done;
            }
            Py_ssize_t c = PyLong_AsSsize_t(column);
            if (c == -1 && PyErr_Occurred())
                goto done;
            if (c < 0 || c >= k) {
                PyErr_SetString(PyExc_ValueError, "columns names a position outside keys");
                goto done;
            }
            if (!example_value(value, &xa[c + 1])) {
                result = Py_NewRef(Py_None);
                goto done;
            }
        }
    }
    Py_ssize_t n = wv.shape[0];
    PyObject *margins = PyList_New(n), *votes = PyList_New(n);
    if (margins == NULL || votes == NULL) {
        Py_XDECREF(margins);
        Py_XDECREF(votes);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *row = (const char *)wv.buf + i * wv.strides[0];
#define W(jj) (*(const double *)(row + (jj) * wv.strides[1]))
        double m = W(0) * xa[0];
        for (j = 1; j < width; j++)
            m += W(j) * xa[j];
#undef W
        PyObject *f = PyFloat_FromDouble(m);
        if (f == NULL) {
            Py_DECREF(margins);
            Py_DECREF(votes);
            goto done;
        }
        PyList_SET_ITEM(margins, i, f);
        PyList_SET_ITEM(votes, i, PyBool_FromLong(river_vote(m)));
    }
    double norm = xa[0] * xa[0];
    for (j = 1; j < width; j++)
        norm += xa[j] * xa[j];
    result = Py_BuildValue("(NNd)", margins, votes, norm);
done:
    PyBuffer_Release(&xv);
    PyBuffer_Release(&wv);
    return result;
}

/* linear_commit(weights, moves, xa, ratio) -> None: LinearMembers.commit's update,
 * weights[i, j] -= moves[i] * along[j] for j < len(xa), with along xa but its first cell (the
 * intercepts' column) `ratio`: numpy's outer product subtracted, the same floats. */
static PyObject *linear_commit(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(4, "linear_commit");
    PyObject *moves = args[1];
    double ratio = PyFloat_AsDouble(args[3]);
    if (ratio == -1.0 && PyErr_Occurred())
        return NULL;
    Py_buffer wv, xv;
    const Py_ssize_t shape[2] = {-1, -1};
    Py_ssize_t width = -1;
    if (get_matrix(args[0], &wv, 2, shape, "weights"))
        return NULL;
    if (get_buffer(args[2], &xv, 'd', &width, 0, "xa")) {
        PyBuffer_Release(&wv);
        return NULL;
    }
    Py_ssize_t n = wv.shape[0];
    PyObject *result = NULL;
    if (wv.readonly || wv.shape[1] < width || width < 1 || check_list(moves, n, "moves")) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "weights must be writable, as wide as xa");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) { /* every move read first: a bad one changes nothing */
        double move;
        if (get_double(moves, i, &move))
            goto done;
    }
    const double *xa = xv.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        double move = PyFloat_AsDouble(PyList_GET_ITEM(moves, i)); /* read above: no error */
        char *row = (char *)wv.buf + i * wv.strides[0];
        *(double *)row -= move * ratio;
        for (Py_ssize_t j = 1; j < width; j++)
            *(double *)(row + j * wv.strides[1]) -= move * xa[j];
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&xv);
    PyBuffer_Release(&wv);
    return result;
}

/* weak_commit(stump, target, ks, right, scores_x, score, params_x, params, cols, xv,
 *             gradients, lr) -> None: WeakMembers.commit's update of member i's candidate on
 * x's f-th value (column c = cols[f], or f when cols is None: every column in order), with
 * k_i = ks[i] as a float (a draw, or a draw times a sample weight), the same floats as its
 * numpy twin:
 * score[i, c] = scores_x[i, f] + k_i * (right[i, f] ? 1 : -1); a stump (fields n_pos, n_neg,
 * s_pos, s_neg) adds k_i to the target's count and k_i * xv[f] to its sum; a univariate
 * regression (coef, bias) takes step = k_i * (lr * gradients[i, f]): coef - step * xv[f],
 * bias - step. params_x and params are field x member x value (or column). */
static PyObject *weak_commit(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(12, "weak_commit");
    int stump = PyObject_IsTrue(args[0]), target = PyObject_IsTrue(args[1]);
    PyObject *ks = args[2], *cols = args[8];
    double lr = PyFloat_AsDouble(args[11]);
    if (stump < 0 || target < 0 || (lr == -1.0 && PyErr_Occurred()))
        return NULL;
    Py_buffer right, scores_x, score, params_x, params, xv, grads;
    Py_buffer *const held[] = {&right, &scores_x, &score, &params_x, &params, &xv, &grads};
    const Py_ssize_t any2[2] = {-1, -1}, any3[3] = {-1, -1, -1};
    Py_ssize_t p = -1;
    int got = 0; /* how many buffers to release */
    PyObject *result = NULL;
    if (PyObject_GetBuffer(args[3], &right, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
        return NULL;
    got = 1;
    if (right.ndim != 2 || right.itemsize != 1 || right.format[0] != '?') {
        PyErr_SetString(PyExc_TypeError, "right must be a 2-d bool array");
        goto done;
    }
    if (get_matrix(args[4], &scores_x, 2, any2, "scores_x"))
        goto done;
    got = 2;
    if (get_matrix(args[5], &score, 2, any2, "score"))
        goto done;
    got = 3;
    if (get_matrix(args[6], &params_x, 3, any3, "params_x"))
        goto done;
    got = 4;
    if (get_matrix(args[7], &params, 3, any3, "params"))
        goto done;
    got = 5;
    if (get_buffer(args[9], &xv, 'd', &p, 0, "xv"))
        goto done;
    got = 6;
    Py_ssize_t m = right.shape[0], fields = stump ? 4 : 2;
    if (!stump) {
        if (args[10] == Py_None) {
            PyErr_SetString(PyExc_TypeError, "univariate members need their gradients");
            goto done;
        }
        if (get_matrix(args[10], &grads, 2, any2, "gradients"))
            goto done;
        got = 7;
    }
    Py_ssize_t width = score.shape[1];
    int ok = right.shape[1] == p && scores_x.shape[0] == m && scores_x.shape[1] == p &&
             score.shape[0] == m && params_x.shape[0] == fields && params_x.shape[1] == m &&
             params_x.shape[2] == p && params.shape[0] == fields && params.shape[1] == m &&
             params.shape[2] == width && !score.readonly && !params.readonly &&
             (stump || (grads.shape[0] == m && grads.shape[1] == p));
    if (!ok || check_list(ks, m, "ks") || (cols != Py_None && check_list(cols, p, "cols"))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "weak_commit's arrays do not fit each other, or "
                                             "score or params is read-only");
        goto done;
    }
    /* every column and draw read first: a bad one raises before anything changes */
    Py_ssize_t *column = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(p ? p : 1));
    double *draws = PyMem_Malloc(sizeof(double) * (size_t)(m ? m : 1));
    if (column == NULL || draws == NULL) {
        PyMem_Free(column);
        PyMem_Free(draws);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t f = 0; f < p; f++) {
        column[f] = cols == Py_None ? f : PyLong_AsSsize_t(PyList_GET_ITEM(cols, f));
        if ((column[f] == -1 && PyErr_Occurred()) || column[f] < 0 || column[f] >= width) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "cols names a column outside score");
            PyMem_Free(column);
            PyMem_Free(draws);
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < m; i++) { /* an int draw k, or k w for a sample weight w */
        PyObject *item = PyList_GET_ITEM(ks, i);
        double k = PyLong_CheckExact(item) ? (double)PyLong_AsLong(item) : PyFloat_AsDouble(item);
        if (k == -1.0 && PyErr_Occurred()) {
            PyMem_Free(column);
            PyMem_Free(draws);
            goto done;
        }
        draws[i] = k;
    }
#define AT2(view, i, j) (*(double *)((char *)(view).buf + (i) * (view).strides[0] + (j) * (view).strides[1]))
#define AT3(view, a, i, j) (*(double *)((char *)(view).buf + (a) * (view).strides[0] + (i) * (view).strides[1] + (j) * (view).strides[2]))
    const double *x = xv.buf;
    /* the stump's fields of the target's class: its count and its sum */
    Py_ssize_t count = target ? 0 : 1, sum = target ? 2 : 3;
    for (Py_ssize_t i = 0; i < m; i++) {
        double kd = draws[i];
        for (Py_ssize_t f = 0; f < p; f++) {
            Py_ssize_t c = column[f];
            char r = *((char *)right.buf + i * right.strides[0] + f * right.strides[1]);
            AT2(score, i, c) = AT2(scores_x, i, f) + kd * (r ? 1.0 : -1.0);
            if (stump) {
                AT3(params, count, i, c) = AT3(params_x, count, i, f) + kd;
                AT3(params, sum, i, c) = AT3(params_x, sum, i, f) + kd * x[f];
            } else {
                double step = kd * (lr * AT2(grads, i, f));
                AT3(params, 0, i, c) = AT3(params_x, 0, i, f) - step * x[f];
                AT3(params, 1, i, c) = AT3(params_x, 1, i, f) - step;
            }
        }
    }
#undef AT2
#undef AT3
    PyMem_Free(column);
    PyMem_Free(draws);
    result = Py_NewRef(Py_None);
done:
    release_held(held, got);
    return result;
}

#define METHOD(name, doc) {#name, (PyCFunction)(void (*)(void))name, METH_FASTCALL, doc}

static PyMethodDef methods[] = {
    METHOD(poisson_fill, "Generator.poisson's draws for an array of rates, into an int64 array."),
    METHOD(oza_batch, "Oza boosting's lambda update over a minibatch."),
    METHOD(oza_linear_frame, "Every logistic-regression member's step on a minibatch, in place."),
    METHOD(oza_stump_frame, "Every decision stump member's step on a minibatch, in place."),
    METHOD(stump_frame_votes, "Every decision stump member's vote on each row of a minibatch."),
    METHOD(oza_univariate_frame,
           "Every univariate logistic-regression member's step on a minibatch, in place."),
    METHOD(oza_linear, "Oza boosting's learn_one loop over logistic-regression members."),
    METHOD(oza_weak, "Oza boosting's learn_one loop over stumps or univariate regressions."),
    METHOD(best_candidates, "Each weak member's best candidates right and wrong on x."),
    METHOD(stump_votes, "Every decision stump candidate's vote on x."),
    METHOD(weak_soft, "The soft score of weak members on an x with a feature."),
    METHOD(weak_sigmoids, "Univariate logistic regressions' probabilities of margins."),
    METHOD(poisson, "k ~ Poisson(rate) as streamboost.poisson.poisson draws it."),
    METHOD(draws_in_place, "Whether a random.Random's uniforms are drawn from its state here."),
    METHOD(oza_alphas, "AdaMEC's vote weights from the members' lambda_sc and lambda_sw."),
    METHOD(vote_score, "The booster's score from the vote weights and the members' votes."),
    METHOD(soft_score, "The booster's soft score from the vote weights and the members' probabilities."),
    METHOD(platt_predict, "Online Platt scaling's map of a score."),
    METHOD(platt_predict_many, "Online Platt scaling's map of each score of an array."),
    METHOD(platt_predict_pair, "Two Platt maps of the same constants, of each score of an array."),
    METHOD(platt_learn, "One update of online Platt scaling, in place."),
    METHOD(platt_learn_many, "Updates of online Platt scaling by a list of pairs, in place."),
    METHOD(beta_predict, "Online beta calibration's map of a score."),
    METHOD(beta_predict_many, "Online beta calibration's map of each score of an array."),
    METHOD(beta_learn, "One Online Newton Step of beta calibration."),
    METHOD(beta_learn_many, "Online beta calibration by a list of pairs."),
    METHOD(pav_update, "Pool Adjacent Violators' blocks re-fitted after one value changed."),
    METHOD(histogram_pool, "Histogram binning's rates and their pooled blocks, from scratch."),
    METHOD(histogram_predict, "Histogram binning's pooled rate of a score's bin."),
    METHOD(histogram_predict_many, "Histogram binning's map of each score of an array."),
    METHOD(isotonic_predict, "Online isotonic regression's interpolated map of a score."),
    METHOD(isotonic_predict_many, "Online isotonic regression's map of each score of an array."),
    METHOD(ewa_learn, "Expert advice's losses and weights after a pair, in place."),
    METHOD(ewa_predict, "Expert advice's weighted average of its members' predictions."),
    METHOD(loss_means, "The reward's mean loss of each row of a round's probabilities."),
    METHOD(share_attributes, "Set attributes of one object to those of another, by name."),
    METHOD(copy_attributes, "Set attributes of one object to one-level copies of another's."),
    METHOD(floats_within, "Whether every value of a dict is a float within +/-limit."),
    METHOD(numbers_within, "Whether every value of a dict is a float or a small int within +/-limit."),
    METHOD(fill_rows, "The rows of a list of dicts of the same keys, into a float64 table."),
    METHOD(fill_columns, "The rows of a list of dicts of some known keys, into a float64 table."),
    METHOD(vote_scores, "The booster's scores of a table from its linear members' margins."),
    METHOD(linear_soft_scores, "The booster's soft scores of a table from its linear members."),
    METHOD(linear_margins, "Logistic-regression members' margins and votes on one example."),
    METHOD(linear_commit, "Logistic-regression members' update on one example, in place."),
    METHOD(weak_commit, "Weak members' update on one example, in place."),
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels", "Compiled twins of Oza boosting's hot loops.", -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void)
{
    PyObject *math = PyImport_ImportModule("math");
    if (math == NULL)
        return NULL;
    py_lgamma = PyObject_GetAttrString(math, "lgamma");
    Py_DECREF(math);
    if (py_lgamma == NULL)
        return NULL;
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy == NULL)
        return NULL;
    ndarray_type = PyObject_GetAttrString(numpy, "ndarray");
    Py_DECREF(numpy);
    copy_name = PyUnicode_InternFromString("copy");
    if (ndarray_type == NULL || copy_name == NULL)
        return NULL;
    check_random_layout();
    return PyModule_Create(&module);
}
