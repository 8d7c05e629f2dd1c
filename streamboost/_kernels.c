/* Compiled twins of Oza boosting's hot loops (streamboost/kernels.py says which and why).
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

#define TIE_BAND 1e-9 /* members/linear.py: _TIE_BAND */

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

/* oza_linear(margins, before, target, step, lr, weighted, sc, sw, moves, steps, rng, draw,
 *            knuth_max) -> bool
 *
 * OzaBoostClassifier.learn_one's loop over LinearMembers (boosting.py, members/linear.py):
 * member i draws k ~ Poisson(lam) (Knuth's product with rng.random below knuth_max, else
 * draw(lam, rng)), learns x k times (or once with weight k) starting from margins[i], is checked
 * on x, and lam, sc[i], sw[i] follow Oza's rule. moves[i] becomes lr * (sum of the gradients),
 * steps[i] grows by the steps taken; returns whether any member learned. */
static PyObject *oza_linear_loop(PyObject *const *args, PyObject *uniform)
{
    PyObject *margins = args[0], *before = args[1], *step = args[3];
    PyObject *sc = args[6], *sw = args[7], *moves = args[8], *steps = args[9];
    PyObject *rng = args[10], *draw = args[11];
    int target = PyObject_IsTrue(args[2]);
    int weighted = PyObject_IsTrue(args[5]);
    double lr = PyFloat_AsDouble(args[4]);
    double knuth_max = PyFloat_AsDouble(args[12]);
    if (target < 0 || weighted < 0 || PyErr_Occurred())
        return NULL;
    if (!PyList_CheckExact(margins)) {
        PyErr_SetString(PyExc_TypeError, "margins must be a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(margins);
    if (check_list(before, n, "before") || check_list(sc, n, "sc") || check_list(sw, n, "sw") ||
        check_list(moves, n, "moves") || check_list(steps, n, "steps"))
        return NULL;
    if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) != 4) {
        PyErr_SetString(PyExc_TypeError, "step must be a tuple (sign, weight, clip, curvature)");
        return NULL;
    }
    long sign_i = PyLong_AsLong(PyTuple_GET_ITEM(step, 0));
    double weight = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 1));
    double clip = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 2));
    double curvature = PyFloat_AsDouble(PyTuple_GET_ITEM(step, 3));
    if (PyErr_Occurred())
        return NULL;
    double sign = (double)sign_i, neg_sign = (double)(-sign_i);
    double lam = 1.0;
    int trained = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long k = 0;
        if (lam < knuth_max) {
            double limit = exp(-lam), p, u;
            if (next_uniform(uniform, &p))
                return NULL;
            while (p > limit) {
                k += 1;
                if (next_uniform(uniform, &u))
                    return NULL;
                p *= u;
            }
        } else {
            PyObject *lam_obj = PyFloat_FromDouble(lam);
            if (lam_obj == NULL)
                return NULL;
            PyObject *r = PyObject_CallFunctionObjArgs(draw, lam_obj, rng, NULL);
            Py_DECREF(lam_obj);
            if (r == NULL)
                return NULL;
            k = PyLong_AsLong(r);
            Py_DECREF(r);
            if (k == -1 && PyErr_Occurred())
                return NULL;
        }
        int vote;
        if (k) {
            double m;
            if (get_double(margins, i, &m))
                return NULL;
            double total = 0.0;
            long repeats = weighted ? 1 : k;
            for (long j = 0; j < repeats; j++) {
                double z = m * sign, g;
                if (z > 18.0)
                    g = weight * exp(-z) * neg_sign;
                else if (z < -18.0)
                    g = weight * neg_sign;
                else
                    g = weight * neg_sign / (exp(z) + 1.0);
                if (weighted)
                    g *= (double)k;
                if (g > clip || g < -clip)
                    g = g > 0.0 ? clip : -clip;
                total += g;
                m -= g * curvature;
            }
            if (set_double(moves, i, lr * total))
                return NULL;
            long taken = PyLong_AsLong(PyList_GET_ITEM(steps, i));
            if (taken == -1 && PyErr_Occurred())
                return NULL;
            PyObject *count = PyLong_FromLong(taken + repeats);
            if (count == NULL)
                return NULL;
            PyObject *old = PyList_GET_ITEM(steps, i);
            PyList_SET_ITEM(steps, i, count);
            Py_DECREF(old);
            trained = 1;
            vote = river_vote(m);
        } else {
            vote = PyObject_IsTrue(PyList_GET_ITEM(before, i));
            if (vote < 0)
                return NULL;
        }
        double right, wrong;
        if (get_double(sc, i, &right) || get_double(sw, i, &wrong))
            return NULL;
        if (vote == target) {
            right = right + lam;
            if (set_double(sc, i, right))
                return NULL;
            lam *= (right + wrong) / (2.0 * right);
        } else {
            wrong = wrong + lam;
            if (set_double(sw, i, wrong))
                return NULL;
            lam *= (right + wrong) / (2.0 * wrong);
        }
    }
    return PyBool_FromLong(trained);
}

static PyObject *oza_linear(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError, "oza_linear takes 13 arguments");
        return NULL;
    }
    PyObject *uniform = PyObject_GetAttrString(args[10], "random");
    if (uniform == NULL)
        return NULL;
    PyObject *result = oza_linear_loop(args, uniform);
    Py_DECREF(uniform);
    return result;
}

/* oza_alphas(sc, sw, stop) -> list: OzaBoostClassifier._compute_alphas (AdaMEC's vote weights,
 * Oza 2005 Fig. 2 with the error floored at 1/(2(n+1))). */
static PyObject *oza_alphas(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "oza_alphas takes 3 arguments");
        return NULL;
    }
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
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "vote_score takes 3 arguments");
        return NULL;
    }
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

/* poisson_fill(capsule, lam, out): out[b] ~ Poisson(lam[b]) from the bit generator in
 * `capsule` (Generator.bit_generator.capsule), in order: Generator.poisson(lam)'s draws. */
static PyObject *poisson_fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "poisson_fill takes 3 arguments");
        return NULL;
    }
    bitgen_t *bitgen = PyCapsule_GetPointer(args[0], "BitGenerator");
    if (bitgen == NULL)
        return NULL;
    Py_buffer lam_view, out_view;
    Py_ssize_t n = -1;
    if (get_buffer(args[1], &lam_view, 'd', &n, 0, "lam"))
        return NULL;
    if (get_buffer(args[2], &out_view, 'q', &n, 1, "out")) {
        PyBuffer_Release(&lam_view);
        return NULL;
    }
    const double *lam = lam_view.buf;
    int64_t *out = out_view.buf;
    for (Py_ssize_t b = 0; b < n; b++) {
        /* Generator.poisson's checks, before any draw: 0 <= lam <= its POISSON_LAM_MAX */
        if (!(lam[b] >= 0.0 && lam[b] <= POISSON_LAM_MAX)) {
            PyBuffer_Release(&lam_view);
            PyBuffer_Release(&out_view);
            char text[64];
            snprintf(text, sizeof text, "%.17g", lam[b]);
            PyErr_Format(PyExc_ValueError, "lam must be in [0, 9.2e18], got %s at row %zd", text,
                         b);
            return NULL;
        }
    }
    for (Py_ssize_t b = 0; b < n; b++)
        out[b] = random_poisson(bitgen, lam[b]);
    PyBuffer_Release(&lam_view);
    PyBuffer_Release(&out_view);
    Py_RETURN_NONE;
}

/* oza_batch(votes, targets, lam, sc, sw) -> (sc, sw): OzaBoostClassifier._learn_table's update
 * of lambda after member i learned a minibatch: row b's lambda_sc, lambda_sw are running sums
 * from (sc, sw) up to b; lam[b] *= (sc_b + sw_b) / (2 (sc_b if right else sw_b)). */
static PyObject *oza_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "oza_batch takes 5 arguments");
        return NULL;
    }
    double right = PyFloat_AsDouble(args[3]), wrong = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer votes_view, targets_view, lam_view;
    Py_ssize_t n = -1;
    if (get_buffer(args[0], &votes_view, '?', &n, 0, "votes"))
        return NULL;
    if (get_buffer(args[1], &targets_view, '?', &n, 0, "targets")) {
        PyBuffer_Release(&votes_view);
        return NULL;
    }
    if (get_buffer(args[2], &lam_view, 'd', &n, 1, "lam")) {
        PyBuffer_Release(&votes_view);
        PyBuffer_Release(&targets_view);
        return NULL;
    }
    const char *votes = votes_view.buf, *targets = targets_view.buf;
    double *lam = lam_view.buf;
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
    PyBuffer_Release(&votes_view);
    PyBuffer_Release(&targets_view);
    PyBuffer_Release(&lam_view);
    return Py_BuildValue("(dd)", right, wrong);
}

/* log_gradients(z, scale, ks, clip, lr): in place, z[b] becomes
 * lr * clip(expit(z[b]) * scale[b] * ks[b]): LinearMembers.learn_batch's weighted gradients
 * (River's Log.gradient, clipped), expit as scipy computes it, 1 / (1 + e^-z). */
static PyObject *log_gradients(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "log_gradients takes 5 arguments");
        return NULL;
    }
    double clip = PyFloat_AsDouble(args[3]), lr = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer z_view, scale_view, ks_view;
    Py_ssize_t n = -1;
    if (get_buffer(args[0], &z_view, 'd', &n, 1, "z"))
        return NULL;
    if (get_buffer(args[1], &scale_view, 'd', &n, 0, "scale")) {
        PyBuffer_Release(&z_view);
        return NULL;
    }
    if (get_buffer(args[2], &ks_view, 'q', &n, 0, "ks")) {
        PyBuffer_Release(&z_view);
        PyBuffer_Release(&scale_view);
        return NULL;
    }
    double *z = z_view.buf;
    const double *scale = scale_view.buf;
    const int64_t *ks = ks_view.buf;
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
    PyBuffer_Release(&z_view);
    PyBuffer_Release(&scale_view);
    PyBuffer_Release(&ks_view);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"poisson_fill", (PyCFunction)(void (*)(void))poisson_fill, METH_FASTCALL,
     "Generator.poisson's draws for an array of rates, into an int64 array."},
    {"oza_batch", (PyCFunction)(void (*)(void))oza_batch, METH_FASTCALL,
     "Oza boosting's lambda update over a minibatch."},
    {"log_gradients", (PyCFunction)(void (*)(void))log_gradients, METH_FASTCALL,
     "Weighted, clipped log-loss gradients of a minibatch, in place."},
    {"oza_linear", (PyCFunction)(void (*)(void))oza_linear, METH_FASTCALL,
     "Oza boosting's learn_one loop over logistic-regression members."},
    {"oza_alphas", (PyCFunction)(void (*)(void))oza_alphas, METH_FASTCALL,
     "AdaMEC's vote weights from the members' lambda_sc and lambda_sw."},
    {"vote_score", (PyCFunction)(void (*)(void))vote_score, METH_FASTCALL,
     "The booster's score from the vote weights and the members' votes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels", "Compiled twins of Oza boosting's hot loops.", -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
