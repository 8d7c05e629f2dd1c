/* Compiled twins of Oza boosting's hot loops and of online Platt scaling's update (streamboost/kernels.py says which and why).
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

/* A uniform from `uniform` (a bound random.Random.random). */
static int next_uniform(PyObject *uniform, double *out)
{
    PyObject *r = PyObject_CallNoArgs(uniform);
    if (r == NULL)
        return -1;
    *out = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *py_lgamma; /* math.lgamma: CPython's own, not the C library's */

/* k ~ Poisson(rate): streamboost.poisson.poisson, its Knuth branch below knuth_max and PTRS
 * (Hoermann 1993) above, the same uniforms and operations. */
static int draw_poisson(double rate, PyObject *uniform, double knuth_max, long *k_out)
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
    PyObject *uniform = PyObject_GetAttrString(rng, "random");
    if (uniform == NULL)
        return -1;
    double lam = 1.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long k;
        int vote;
        if (draw_poisson(lam, uniform, knuth_max, &k))
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
    Py_DECREF(uniform);
    return 0;
error:
    Py_DECREF(uniform);
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
    double sign, neg_sign, weight, clip, curvature, lr;
    int weighted, trained;
} linear_ctx;

/* LinearMembers.vote_after: k steps of River's Log.gradient (or one of weight k), each moving
 * the margin on x by -g * curvature. */
static int linear_vote_after(void *p, Py_ssize_t i, long k, int *vote)
{
    linear_ctx *c = p;
    double m;
    if (get_double(c->margins, i, &m))
        return -1;
    double total = 0.0;
    long repeats = c->weighted ? 1 : k;
    for (long j = 0; j < repeats; j++) {
        double z = m * c->sign, g;
        if (z > 18.0)
            g = c->weight * exp(-z) * c->neg_sign;
        else if (z < -18.0)
            g = c->weight * c->neg_sign;
        else
            g = c->weight * c->neg_sign / (exp(z) + 1.0);
        if (c->weighted)
            g *= (double)k;
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
    if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) != 4) {
        PyErr_SetString(PyExc_TypeError, "step must be a tuple (sign, weight, clip, curvature)");
        return NULL;
    }
    long sign = PyLong_AsLong(PyTuple_GET_ITEM(step, 0));
    c.sign = (double)sign;
    c.neg_sign = (double)(-sign);
    c.weight = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 1));
    c.clip = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 2));
    c.curvature = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 3));
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
} weak_ctx;

/* DecisionStump's vote from its class weights and sums: streamboost.weak.stump.stump_vote. */
static int stump_vote(double n_pos, double n_neg, double s_pos, double s_neg, double x)
{
    if (n_pos > 0.0 && n_neg > 0.0) {
        double mu_pos = s_pos / n_pos, mu_neg = s_neg / n_neg;
        double gap = mu_pos - mu_neg;
        if (gap != 0.0)
            return (x - (mu_pos + mu_neg) * 0.5) * gap > 0.0;
    }
    return n_pos > n_neg;
}

/* WeakMembers.vote_after: the candidate that wins after weight k (right one iff 2k > switch),
 * then StumpMembers' or UnivariateMembers' _vote_after on it. */
static int weak_vote_after(void *p, Py_ssize_t i, long k, int *vote)
{
    weak_ctx *c = p;
    if (set_long(c->ks, i, k))
        return -1;
    if (c->present == 0) {
        *vote = 0;
        return 0;
    }
    double threshold;
    if (get_double(c->switch_, i, &threshold))
        return -1;
    PyObject *best = (double)(2 * k) > threshold ? c->best_right : c->best_wrong;
    Py_ssize_t f = PyLong_AsSsize_t(PyList_GET_ITEM(best, i));
    double x;
    if ((f == -1 && PyErr_Occurred()) || get_double(c->xs, f, &x))
        return -1;
    const Py_ssize_t *st = c->params_strides;
    const char *at = c->params + i * st[1] + f * st[2];
#define PARAM(j) (*(const double *)(at + (j) * st[0]))
    double kd = (double)k;
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
 *          xs, params, gradients, lr) -> None: learn_one's loop over StumpMembers (stump true)
 * or UnivariateMembers; params are the members' candidates on x's features (field x member x
 * feature), gradients (member x feature) the univariate ones' (None for stumps); ks[i]
 * becomes member i's draw. */
static PyObject *oza_weak(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(15, "oza_weak");
    weak_ctx c = {.ks = args[5], .switch_ = args[8], .best_right = args[9],
                  .best_wrong = args[10], .xs = args[11]};
    PyObject *before = args[1], *sc = args[3], *sw = args[4];
    c.stump = PyObject_IsTrue(args[0]);
    c.target = PyObject_IsTrue(args[2]);
    double knuth_max = PyFloat_AsDouble(args[7]);
    c.lr = PyFloat_AsDouble(args[14]);
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
    Py_buffer params = {0}, grads = {0};
    int have_params = 0, have_grads = 0, failed = 0;
    if (c.present) {
        Py_ssize_t shape[3] = {c.stump ? 4 : 2, n, c.present};
        if (get_matrix(args[12], &params, 3, shape, "params"))
            return NULL;
        have_params = 1;
        c.params = params.buf;
        memcpy(c.params_strides, params.strides, sizeof c.params_strides);
        if (!c.stump) {
            if (get_matrix(args[13], &grads, 2, shape + 1, "gradients")) {
                PyBuffer_Release(&params);
                return NULL;
            }
            have_grads = 1;
            c.gradients = grads.buf;
            memcpy(c.gradient_strides, grads.strides, sizeof c.gradient_strides);
        }
    }
    failed = oza_loop(before, c.target, sc, sw, args[6], knuth_max, weak_vote_after, &c);
    if (have_params)
        PyBuffer_Release(&params);
    if (have_grads)
        PyBuffer_Release(&grads);
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
    PyObject *uniform = PyObject_GetAttrString(args[1], "random");
    if (uniform == NULL)
        return NULL;
    long k;
    int failed = draw_poisson(rate, uniform, knuth_max, &k);
    Py_DECREF(uniform);
    return failed ? NULL : PyLong_FromLong(k);
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

/* vote_score(alphas, votes, logistic) -> float: OzaBoostClassifier._score_one's sum (Nikolaou
 * 2016, Eq. 7.6 or, logistic, 7.7); a member with alpha 0 or vote None abstains. */
static PyObject *vote_score(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(3, "vote_score");
    PyObject *alphas = args[0], *votes = args[1];
    int logistic = PyObject_IsTrue(args[2]);
    if (logistic < 0)
        return NULL;
    if (!PyList_CheckExact(alphas)) {
        PyErr_SetString(PyExc_TypeError, "alphas must be a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(alphas);
    if (check_list(votes, n, "votes"))
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

/* poisson_fill(capsule, lam, out): out[b] ~ Poisson(lam[b]) from the bit generator in
 * `capsule` (Generator.bit_generator.capsule), in order: Generator.poisson(lam)'s draws. */
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
    const double *lam = views[0].buf;
    int64_t *out = views[1].buf;
    for (Py_ssize_t b = 0; b < n; b++) {
        /* Generator.poisson's checks, before any draw: 0 <= lam <= its POISSON_LAM_MAX */
        if (!(lam[b] >= 0.0 && lam[b] <= POISSON_LAM_MAX)) {
            release_buffers(views, 2);
            char text[64];
            snprintf(text, sizeof text, "%.17g", lam[b]);
            PyErr_Format(PyExc_ValueError, "lam must be in [0, 9.2e18], got %s at row %zd", text,
                         b);
            return NULL;
        }
    }
    for (Py_ssize_t b = 0; b < n; b++)
        out[b] = random_poisson(bitgen, lam[b]);
    release_buffers(views, 2);
    Py_RETURN_NONE;
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
    const char *votes = views[0].buf, *targets = views[1].buf;
    double *lam = views[2].buf;
    for (Py_ssize_t b = 0; b < n; b++) {
        double correct = (votes[b] != 0) == (targets[b] != 0) ? 1.0 : 0.0;
        double r = lam[b] * correct;
        double w = lam[b] - r;
        right = right + r;
        wrong = wrong + w;
        double chosen = correct != 0.0 ? right : wrong;
        chosen *= 2.0;
        lam[b] *= (right + wrong) / chosen;
    }
    release_buffers(views, 3);
    return Py_BuildValue("(dd)", right, wrong);
}

/* log_gradients(z, scale, ks, clip, lr): in place, z[b] becomes
 * lr * clip(expit(z[b]) * scale[b] * ks[b]): LinearMembers.learn_batch's weighted gradients
 * (River's Log.gradient, clipped), expit as scipy computes it, 1 / (1 + e^-z). */
static PyObject *log_gradients(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "log_gradients");
    double clip = PyFloat_AsDouble(args[3]), lr = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred())
        return NULL;
    static const buffer_spec specs[] = {{'d', 1, "z"}, {'d', 0, "scale"}, {'q', 0, "ks"}};
    Py_buffer views[3];
    Py_ssize_t n = -1;
    if (get_buffers(args, specs, 3, views, &n))
        return NULL;
    double *z = views[0].buf;
    const double *scale = views[1].buf;
    const int64_t *ks = views[2].buf;
    for (Py_ssize_t b = 0; b < n; b++) {
        double g = 1.0 / (1.0 + exp(-z[b]));
        g = g * scale[b];
        g = g * (double)ks[b];
        if (g > clip) /* np.minimum, np.maximum: NaN stays NaN */
            g = clip;
        if (g < -clip)
            g = -clip;
        z[b] = g * lr;
    }
    release_buffers(views, 3);
    Py_RETURN_NONE;
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

/* The constants tuple of an OnlinePlattCalibrator (its `_consts`) as doubles. */
static int platt_consts(PyObject *consts, double *c)
{
    if (!PyTuple_CheckExact(consts) || PyTuple_GET_SIZE(consts) != P_N) {
        PyErr_SetString(PyExc_TypeError, "consts must be a tuple of 10 items");
        return -1;
    }
    for (Py_ssize_t i = 0; i < P_N; i++) {
        PyObject *item = PyTuple_GET_ITEM(consts, i);
        c[i] = PyBool_Check(item) ? (double)(item == Py_True) : PyFloat_AsDouble(item);
        if (c[i] == -1.0 && PyErr_Occurred())
            return -1;
    }
    return 0;
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

/* platt_learn(theta, consts, score, positive, project): platt.py's platt_learn, one Online
 * Newton Step (or Gauss-Newton step) of theta in place; `project` is _project_ball, called
 * back for the rare step that leaves the ball. */
static PyObject *platt_learn(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(5, "platt_learn");
    PyObject *theta = args[0];
    double c[P_N], t[T_N];
    if (check_list(theta, T_N, "theta") || platt_consts(args[1], c))
        return NULL;
    for (Py_ssize_t i = 0; i < T_N; i++)
        if (get_double(theta, i, &t[i]))
            return NULL;
    double score = PyFloat_AsDouble(args[2]);
    if (score == -1.0 && PyErr_Occurred())
        return NULL;
    int positive = PyObject_IsTrue(args[3]);
    if (positive < 0)
        return NULL;

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
        PyObject *ab = PyObject_CallFunction(args[4], "dddddd", A, B, h11, h12, h22, radius);
        if (ab == NULL)
            return NULL;
        if (!PyTuple_Check(ab) || PyTuple_GET_SIZE(ab) != 2) {
            Py_DECREF(ab);
            PyErr_SetString(PyExc_TypeError, "project must return (A, B)");
            return NULL;
        }
        A = PyFloat_AsDouble(PyTuple_GET_ITEM(ab, 0));
        B = PyFloat_AsDouble(PyTuple_GET_ITEM(ab, 1));
        Py_DECREF(ab);
        if (PyErr_Occurred())
            return NULL;
    }
    if (A > 0.0) {
        double b = B + h12 * A / h22;
        b = -radius > b ? -radius : b; /* max(b, -radius) */
        B = radius < b ? radius : b;   /* min(b, radius) */
        A = 0.0;
    }
    double out[T_N] = {A, B, c11, c12, c22, n_pos, n_neg};
    for (Py_ssize_t i = 0; i < T_N; i++)
        if (set_double(theta, i, out[i]))
            return NULL;
    Py_RETURN_NONE;
}

/* floats_within(x, limit): whether x is a dict whose values are all floats (exactly) within
 * [-limit, limit]: validation.check_features's common case; anything else (another type, NaN,
 * inf, a value beyond the limit, an int or a string) answers False and Python looks closer. */
static PyObject *floats_within(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    EXPECT_ARGS(2, "floats_within");
    double limit = PyFloat_AsDouble(args[1]);
    if (limit == -1.0 && PyErr_Occurred())
        return NULL;
    if (!PyDict_CheckExact(args[0]))
        Py_RETURN_FALSE;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(args[0], &pos, &key, &value)) {
        if (!PyFloat_CheckExact(value))
            Py_RETURN_FALSE;
        double v = PyFloat_AS_DOUBLE(value);
        if (!(v >= -limit && v <= limit)) /* NaN fails both */
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
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
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *value = PyDict_GetItemWithError(x, PyList_GET_ITEM(keys, j));
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

#define METHOD(name, doc) {#name, (PyCFunction)(void (*)(void))name, METH_FASTCALL, doc}

static PyMethodDef methods[] = {
    METHOD(poisson_fill, "Generator.poisson's draws for an array of rates, into an int64 array."),
    METHOD(oza_batch, "Oza boosting's lambda update over a minibatch."),
    METHOD(log_gradients, "Weighted, clipped log-loss gradients of a minibatch, in place."),
    METHOD(oza_linear, "Oza boosting's learn_one loop over logistic-regression members."),
    METHOD(oza_weak, "Oza boosting's learn_one loop over stumps or univariate regressions."),
    METHOD(best_candidates, "Each weak member's best candidates right and wrong on x."),
    METHOD(stump_votes, "Every decision stump candidate's vote on x."),
    METHOD(poisson, "k ~ Poisson(rate) as streamboost.poisson.poisson draws it."),
    METHOD(oza_alphas, "AdaMEC's vote weights from the members' lambda_sc and lambda_sw."),
    METHOD(vote_score, "The booster's score from the vote weights and the members' votes."),
    METHOD(platt_predict, "Online Platt scaling's map of a score."),
    METHOD(platt_learn, "One update of online Platt scaling, in place."),
    METHOD(floats_within, "Whether every value of a dict is a float within +/-limit."),
    METHOD(fill_rows, "The rows of a list of dicts of the same keys, into a float64 table."),
    METHOD(vote_scores, "The booster's scores of a table from its linear members' margins."),
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
    return PyModule_Create(&module);
}
