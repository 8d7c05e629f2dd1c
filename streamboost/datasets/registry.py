"""The registry of named datasets: what each file is, where it came from, how to read it.

Every entry describes one gzipped CSV file (label column ``target``, one header row) as stored
in the project's shared data directory and checked by its sha256. Counts are those of the
file itself; the thesis's Table B.1 counts (after its 50/50 undersampling) are kept beside them
in ``thesis_instances`` / ``thesis_features``.

References
----------
Nikolaou, N. (2016). Cost-sensitive boosting: a unified approach. PhD thesis, University of
Manchester. Appendix B, Table B.1 (datasets; positive = minority class of the original file,
one-vs-rest for multiclass files, majority undersampled to 50/50).

"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["REGISTRY", "DatasetSpec", "describe_registry"]

UCI_LICENSE = "CC BY 4.0 (UCI Machine Learning Repository)"


@dataclasses.dataclass(frozen=True)
class DatasetSpec:
    """Metadata of one registered dataset file.

    Parameters
    ----------
    name, filename, label_column
        Registry key (``"electricity"``); the gzipped CSV's file name; its label column.
    sha256, size
        Hex digest and size in bytes of the ``.csv.gz`` as stored, checked before every use.
    n_rows, n_features, n_missing
        Data rows (header excluded); feature columns; empty feature cells.
    classes, positive, n_positive
        Every label as written; the one that becomes ``y = True`` (the minority class, or
        the thesis's one-vs-rest class); its rows.
    time_ordered
        Whether row order is time order (real streams: never shuffled by default) or
        arbitrary (UCI sets: shuffled with the seed by default).
    categorical
        True if every feature holds category strings, False if every one is numeric.
    source, citation, license, homepage
        Where this copy came from; who to cite; the data's licence; its public page.
    url
        Direct address of exactly this file (``fetch``), or None where only a mirror
        (``STREAMBOOST_DATA_URL``) has it.
    ambiguous_values
        Values marking a row the thesis left out (``stream(..., drop_ambiguous=True)``).
    thesis_instances, thesis_features
        Thesis Table B.1's "# Instances" and "# Features" (None for other sets).
    notes
        Processing notes and decisions.

    Examples
    --------
    >>> from streamboost.datasets import REGISTRY
    >>> spec = REGISTRY["electricity"]
    >>> spec.n_rows, spec.n_features, spec.positive, spec.time_ordered
    (45312, 8, 'UP', True)
    >>> spec.negatives
    ('DOWN',)

    """

    name: str
    filename: str
    sha256: str
    size: int
    n_rows: int
    n_features: int
    classes: tuple[str, ...]
    positive: str
    n_positive: int
    time_ordered: bool
    categorical: bool
    n_missing: int
    source: str
    citation: str
    license: str
    homepage: str
    url: str | None = None
    ambiguous_values: frozenset[str] = frozenset()
    thesis_instances: int | None = None
    thesis_features: int | None = None
    label_column: str = "target"
    notes: str = ""

    def __post_init__(self) -> None:
        if self.positive not in self.classes:
            raise ValueError(
                f"dataset {self.name!r}: positive label {self.positive!r} is not one of its "
                f"classes {self.classes!r}"
            )
        if len(self.sha256) != 64 or any(c not in "0123456789abcdef" for c in self.sha256):
            raise ValueError(f"dataset {self.name!r}: sha256 must be 64 lowercase hex digits")
        if not 0 < self.n_positive < self.n_rows:
            raise ValueError(f"dataset {self.name!r}: n_positive must be in (0, n_rows)")

    @property
    def negatives(self) -> tuple[str, ...]:
        """Labels that become ``y = False`` (one-vs-rest: every class but the positive one)."""
        return tuple(c for c in self.classes if c != self.positive)


def _uci(
    name: str,
    *,
    sha256: str,
    size: int,
    n_rows: int,
    n_features: int,
    classes: tuple[str, ...],
    positive: str,
    n_positive: int,
    source: str,
    citation: str,
    uci_id: str,
    thesis: tuple[int, int],
    categorical: bool = False,
    n_missing: int = 0,
    homepage: str | None = None,
    **extra,
) -> DatasetSpec:
    """A thesis (Table B.1) dataset from the UCI repository: arbitrary row order, CC BY 4.0."""
    return DatasetSpec(
        name=name,
        filename=f"{name}.csv.gz",
        sha256=sha256,
        size=size,
        n_rows=n_rows,
        n_features=n_features,
        classes=classes,
        positive=positive,
        n_positive=n_positive,
        time_ordered=False,
        categorical=categorical,
        n_missing=n_missing,
        source=source,
        citation=citation,
        license=UCI_LICENSE,
        homepage=homepage or f"https://archive.ics.uci.edu/dataset/{uci_id}",
        thesis_instances=thesis[0],
        thesis_features=thesis[1],
        **extra,
    )


_PMLB = "EpistasisLab/pmlb@0820182a datasets/{}/{}.tsv.gz (last pre-LFS commit; repo MIT)"
_ARFF = "renatopp/arff-datasets@c59f172882 classification/{}.arff"

_SPECS = [
    _uci(
        "parkinsons",
        sha256="c5e3affe090242aa28528c67c4da329195c86371b6972c12f10b20085ba69531",
        size=14119, n_rows=195, n_features=22, classes=("1", "0"), positive="0", n_positive=48,
        source="srdraghu/Parkinsons-Disease-Prediction--ML@c34c01c13c parkinsons.data",
        citation="Little, M. A. et al. (2007). Exploiting nonlinear recurrence and fractal "
        "scaling properties for voice disorder detection. BioMedical Engineering OnLine 6:23.",
        uci_id="174/parkinsons", thesis=(96, 22),
        notes="`name` (recording id) dropped; target = status (1 = Parkinson's); minority 0.",
    ),
    _uci(
        "survival",
        sha256="24c10f12e6f70725777922091343dbc60474d5394f1391d6b56c2fba8cad55ae",
        size=1021, n_rows=306, n_features=3, classes=("1", "2"), positive="2", n_positive=81,
        source=_PMLB.format("haberman", "haberman"),
        citation="Haberman, S. J. (1976). Generalized residuals for log-linear models. Proc. "
        "9th International Biometrics Conference. (UCI Haberman's Survival.)",
        uci_id="43/haberman+s+survival", thesis=(162, 3),
        notes="target 1 = survived >= 5 years, 2 = died within 5 years.",
    ),
    _uci(
        "sonar",
        sha256="ce9d70ff0bf75621e4f0f4c90ba613458c195cdb28df5908e6a93300a0fb3319",
        size=28715, n_rows=208, n_features=60, classes=("0", "1"), positive="1", n_positive=97,
        source=_PMLB.format("sonar", "sonar"),
        citation="Gorman, R. P. & Sejnowski, T. J. (1988). Analysis of hidden units in a "
        "layered network trained to classify sonar targets. Neural Networks 1:75-89.",
        uci_id="151/connectionist+bench+sonar+mines+vs+rocks", thesis=(194, 60),
        notes="PMLB recoded the class to 0/1 (1 = mine).",
    ),
    _uci(
        "heart",
        sha256="22950552e6baafc8e1c0c8a305383cc0af8af76bf7efed62e7e1684b114cba54",
        size=3274, n_rows=270, n_features=13, classes=("0", "1"), positive="1", n_positive=120,
        source=_PMLB.format("heart_statlog", "heart_statlog"),
        citation="UCI Statlog (Heart) data set, donated by R. Detrano (1993).",
        uci_id="145/statlog+heart", thesis=(240, 13),
        notes="target 1 = heart disease present (PMLB recoding of 2), 0 = absent.",
    ),
    _uci(
        "ionosphere",
        sha256="66be91df07d061494bf4befbdb391d2982eb0d99c09050bee9ca354387918a13",
        size=31329, n_rows=351, n_features=34, classes=("1", "0"), positive="0", n_positive=126,
        source=_PMLB.format("ionosphere", "ionosphere"),
        citation="Sigillito, V. G. et al. (1989). Classification of radar returns from the "
        "ionosphere using neural networks. Johns Hopkins APL Technical Digest 10:262-266.",
        uci_id="52/ionosphere", thesis=(252, 34),
        notes="PMLB recoded g/b to 1/0 (1 = good); minority 0 (bad).",
    ),
    _uci(
        "liver",
        sha256="45a0748e3a249665223fd422d67f1308d28949d2d636dc99f307ac38d799d23e",
        size=2535, n_rows=345, n_features=6, classes=("2", "1"), positive="1", n_positive=145,
        source="amritmaj/SVM-Tree@fe84201f69 bupa.data",
        citation="UCI Liver Disorders, BUPA Medical Research Ltd. (R. S. Forsyth, 1990). "
        "See McDermott, J. & Forsyth, R. S. (2016), Pattern Recognition Letters 82:38-46.",
        uci_id="60/liver+disorders", thesis=(290, 6),
        notes="target = field 7 `selector` (1/2) as in the thesis (290 = 2 x 145); McDermott "
        "& Forsyth (2016) note it is a train/test marker, not a diagnosis.",
    ),
    _uci(
        "semeion",
        sha256="f9c48acfde94d1a7560b15e2d81230220805d53e14d87c1c7685793a06ac8903",
        size=41059, n_rows=1593, n_features=256,
        classes=("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), positive="0", n_positive=161,
        source="Manaphy91/Iris_svm@ed8286dfeb semeion.data",
        citation="Buscema, M. (1998). MetaNet: the theory of independent judges. Substance Use "
        "& Misuse 33(2):439-461. (UCI Semeion Handwritten Digit, Semeion Research Center.)",
        uci_id="178/semeion+handwritten+digit", thesis=(322, 256),
        notes="Positive digit 0, not the rarest digit 8 (155 rows): Table B.1's 322 = 2 x 161 "
        "fits only digits 0, 4 and 6; 0 is the first of them and the first of UCI's ten "
        "one-hot class columns.",
    ),
    _uci(
        "congress",
        sha256="43cf35a7747aa567579ad004b018b5cf7f89efe8fd02d3dd0bd5baf7bff4c4c3",
        size=2017, n_rows=435, n_features=16, classes=("democrat", "republican"),
        positive="republican", n_positive=168, categorical=True, n_missing=392,
        source=_ARFF.format("vote"),
        citation="Schlimmer, J. C. (1987). Concept acquisition through representational "
        "adjustment. PhD thesis, UC Irvine. (Congressional Quarterly Almanac 1984.)",
        uci_id="105/congressional+voting+records", thesis=(336, 16),
        notes="16 y/n votes; '?' (no recorded vote) is an empty cell (392 cells).",
    ),
    _uci(
        "wdbc",
        sha256="1673055a75e134502c87226fd06df4d013023abfef350e0c0e0fe4d4c1022904",
        size=37067, n_rows=569, n_features=30, classes=("0", "1"), positive="1", n_positive=212,
        source=_PMLB.format("wdbc", "wdbc"),
        citation="Street, W. N., Wolberg, W. H. & Mangasarian, O. L. (1993). Nuclear feature "
        "extraction for breast tumor diagnosis. Proc. SPIE 1905:861-870.",
        uci_id="17/breast+cancer+wisconsin+diagnostic", thesis=(424, 31),
        notes="target 1 = malignant. Table B.1's 31 features presumably count the id column.",
    ),
    _uci(
        "pima",
        sha256="5a0f4e42bfbe7b2e0be22b8b1d0e78ddb6382c82234dd519d21882f41ee810fa",
        size=9585, n_rows=768, n_features=8, classes=("0", "1"), positive="1", n_positive=268,
        source=_PMLB.format("pima", "pima"),
        citation="Smith, J. W. et al. (1988). Using the ADAP learning algorithm to forecast the "
        "onset of diabetes mellitus. Proc. Symposium on Computer Applications in Medical Care.",
        uci_id="", homepage="https://www.openml.org/d/37", thesis=(576, 8),
        notes="target 1 = diabetes. Balanced count is 2 x 268 = 536, not Table B.1's 576 "
        "(no class of this file has 288 rows; the thesis's copy must have differed). Zeros in "
        "some columns are de-facto missing values, left as in the source.",
    ),
    _uci(
        "credit",
        sha256="162c23881dde283656c5cf7f3374e57efbdc86cb4efc838aaed3559fa7bc03f7",
        size=9713, n_rows=1000, n_features=24, classes=("1", "2"), positive="2", n_positive=300,
        source="areddysathvik/Credit-Risk-Prediction@85bd1abaef german.data-numeric",
        citation="Hofmann, H. (1994). Statlog (German Credit Data). UCI Machine Learning "
        "Repository.",
        uci_id="144/statlog+german+credit+data", thesis=(600, 24),
        notes="numeric version, a1..a24; 1 = good, 2 = bad. UCI cost matrix: predicting good "
        "for a bad applicant costs 5, the reverse 1.",
    ),
    _uci(
        "landsat",
        sha256="a648b58148b2c942a13111f0f7bcdc2ce983398eb8586752c42c8471aae28691",
        size=106791, n_rows=6435, n_features=36, classes=("1", "2", "3", "4", "5", "7"),
        positive="4", n_positive=626,
        source=_PMLB.format("satimage", "satimage"),
        citation="Srinivasan, A. (1993). Statlog (Landsat Satellite). UCI Machine Learning "
        "Repository.",
        uci_id="146/statlog+landsat+satellite", thesis=(1252, 36),
        notes="train+test combined; no class 6. Positive class 4 (rarest, 1252 = 2 x 626).",
    ),
    _uci(
        "splice",
        sha256="36dfe69621ee5b7bf3084e57723fd354d0375a4b2fb16fff7880e61eac890a0f",
        size=62402, n_rows=3190, n_features=60, classes=("EI", "IE", "N"), positive="EI",
        n_positive=767, categorical=True, ambiguous_values=frozenset({"D", "N", "S", "R"}),
        source=_ARFF.format("splice"),
        citation="Towell, G. G., Noordewier, M. O. & Shavlik, J. W. (1992). Molecular Biology "
        "(Splice-junction Gene Sequences). UCI Machine Learning Repository.",
        uci_id="69/molecular+biology+splice+junction+gene+sequences", thesis=(1524, 60),
        notes="pos1..pos60 in A/C/G/T; 15 rows carry ambiguity codes D/N/S/R. Dropping them "
        "(drop_ambiguous=True) leaves 762 EI rows, matching Table B.1's 1524 = 2 x 762.",
    ),
    _uci(
        "musk2",
        sha256="21d17778010b10a6bc4a3578c3b8689ddcc7cb34f17c01ccff1ea8df3ca8fb58",
        size=1299291, n_rows=6598, n_features=166, classes=("0", "1"), positive="1",
        n_positive=1017, source=_PMLB.format("clean2", "clean2"),
        citation="Dietterich, T. G., Lathrop, R. H. & Lozano-Perez, T. (1997). Solving the "
        "multiple instance problem with axis-parallel rectangles. Artificial Intelligence "
        "89:31-71.",
        uci_id="75/musk+version+2", thesis=(2034, 166),
        notes="molecule and conformation names (ids) dropped; target 1 = musk.",
    ),
    _uci(
        "krvskp",
        sha256="2778988686199e208642f0691610996ec6b908d840e107b46c9a1e8d9eee4d2a",
        size=12110, n_rows=3196, n_features=36, classes=("won", "nowin"), positive="nowin",
        n_positive=1527, categorical=True, source=_ARFF.format("kr.vs.kp"),
        citation="Shapiro, A. D. (1983). The role of structured induction in expert systems. "
        "PhD thesis, University of Edinburgh.",
        uci_id="22/chess+king+rook+vs+king+pawn", thesis=(3054, 36),
        notes="36 categorical board features; target won/nowin.",
    ),
    _uci(
        "waveform",
        sha256="1b5117253a801258a9b01f2eb3ec1af31b09590c9889b9cae0dce658e4814035",
        size=336620, n_rows=5000, n_features=40, classes=("0", "1", "2"), positive="1",
        n_positive=1653, source=_PMLB.format("waveform_40", "waveform_40"),
        citation="Breiman, L., Friedman, J., Olshen, R. & Stone, C. (1984). Classification and "
        "Regression Trees. Wadsworth.",
        uci_id="108/waveform+database+generator+version+2", thesis=(3306, 40),
        notes="21 signal + 19 noise attributes; positive class 1 (rarest, 3306 = 2 x 1653).",
    ),
    _uci(
        "spambase",
        sha256="9f3a47d8ca350a0e9656d82f349db5f7dc342ad9de1786314a7834c318e27b3c",
        size=132350, n_rows=4601, n_features=57, classes=("0", "1"), positive="1",
        n_positive=1813, source=_PMLB.format("spambase", "spambase"),
        citation="Hopkins, M., Reeber, E., Forman, G. & Suermondt, J. (1999). Spambase. UCI "
        "Machine Learning Repository.",
        uci_id="94/spambase", thesis=(3626, 57),
        notes="feature columns named 0..56 in UCI order; target 1 = spam.",
    ),
    _uci(
        "mushroom",
        sha256="284500384ae0b2d10792948662dc9273a8699affd79afbe82adb3850fb0f55f6",
        size=29223, n_rows=8124, n_features=22, classes=("e", "p"), positive="p",
        n_positive=3916, categorical=True, n_missing=2480, source=_ARFF.format("mushroom"),
        citation="Schlimmer, J. C. (1987). Mushroom records drawn from The Audubon Society "
        "Field Guide to North American Mushrooms (1981). UCI Machine Learning Repository.",
        uci_id="73/mushroom", thesis=(7832, 21),
        notes="stalk-root '?' is an empty cell (2,480); veil-type is constant, which is why "
        "Table B.1 lists 21 features; it is kept here (harmless to learners).",
    ),
    DatasetSpec(
        name="electricity",
        filename="electricity.csv.gz",
        sha256="c580eabc78900c570be85f5302c42d382185ba6f36c47f72ecd4e0058d318da1",
        size=694272, n_rows=45312, n_features=8, classes=("DOWN", "UP"), positive="UP",
        n_positive=19237, time_ordered=True, categorical=False, n_missing=0,
        source="cassales/relatorio-fapesp@df26cfad6a elecNormNew.arff (MOA's public copy)",
        citation="Harries, M. (1999). Splice-2 comparative evaluation: Electricity pricing. "
        "Tech. report, University of New South Wales; Gama, J. et al. (2004). Learning with "
        "drift detection. SBIA 2004.",
        license="no explicit licence; freely redistributed via MOA / OpenML",
        homepage="https://www.openml.org/d/151",
        notes="Elec2 (normalised), 45,312 half-hours in time order; many papers drop `date`.",
    ),
    DatasetSpec(
        name="weather",
        filename="weather.csv.gz",
        sha256="9791218864c4c78c9c872dfc6ef1045f02ca6e5017ffaebf1380313718039812",
        size=231918, n_rows=18159, n_features=8, classes=("0", "1"), positive="1",
        n_positive=5698, time_ordered=True, categorical=False, n_missing=0,
        source="vlosing/driftDatasets@01d08dec71 realWorld/weather/NEweather_{data,class}.csv",
        citation="Elwell, R. & Polikar, R. (2011). Incremental learning of concept drift in "
        "nonstationary environments. IEEE Trans. Neural Networks 22(10):1517-1531.",
        license="US-government (NOAA) data, public domain",
        homepage="https://github.com/vlosing/driftDatasets",
        notes="Offutt AFB, Nebraska, 1949-1999, 18,159 days in time order; target 1 = rain.",
    ),
    DatasetSpec(
        name="phishing",
        filename="phishing.csv.gz",
        sha256="9ee4aa5e966efd759f4406564154c967c6bacef2086bd8612756a28ce5cb8acf",
        size=58960, n_rows=11055, n_features=30, classes=("1", "-1"), positive="-1",
        n_positive=4898, time_ordered=True, categorical=False, n_missing=0,
        source="philomathic-guy/Malicious-Web-Content-Detection-Using-Machine-Learning"
        "@c86d470935 dataset/Training Dataset.arff (repo MIT)",
        citation="Mohammad, R. M., Thabtah, F. & McCluskey, L. (2012). An assessment of "
        "features related to phishing websites using an automated technique. ICITST 2012.",
        license=UCI_LICENSE,
        homepage="https://archive.ics.uci.edu/dataset/327/phishing+websites",
        notes="features in {-1, 0, 1}; target -1 = phishing (positive), 1 = legitimate. The "
        "file order is the source's, replayed as given (not shuffled by default).",
    ),
    DatasetSpec(
        name="outdoor",
        filename="outdoor.csv.gz",
        sha256="81ffc883772917fe96989ff3f5b9d35f117cd8a766a6340047737d6ff74deae0",
        size=200669, n_rows=4000, n_features=21, classes=tuple(str(i) for i in range(40)),
        positive="3", n_positive=100, time_ordered=True, categorical=False, n_missing=0,
        source="vlosing/driftDatasets@01d08dec71 realWorld/outdoor/outdoorStream.{data,labels}",
        citation="Losing, V., Hammer, B. & Wersing, H. (2016). KNN classifier with self "
        "adjusting memory for heterogeneous concept drift. ICDM 2016.",
        license="no explicit licence (cite the authors)",
        homepage="https://github.com/vlosing/driftDatasets",
        notes="40 objects x 100 samples in temporal order; every class is equally rare, the "
        "one-vs-rest positive is object 3 as named in the shared MANIFEST.",
    ),
    DatasetSpec(
        name="chess_zliobaite",
        filename="chess_zliobaite.csv.gz",
        sha256="4c13e335cc99d45e8c173eca10183d8086828e756e9e68e116c6e1e63241cedb",
        size=3638, n_rows=503, n_features=8, classes=("1", "0"), positive="0", n_positive=198,
        time_ordered=True, categorical=False, n_missing=0,
        source="ogozuacik/concept-drift-datasets-scikit-multiflow@fcbad97fe3 "
        "real-world/chessweka.csv",
        citation="Zliobaite, I. (2011). Combining similarity in time and space for training "
        "set formation under concept drift. Intelligent Data Analysis 15(4):589-611.",
        license="no explicit licence (cite Zliobaite)",
        homepage="https://github.com/ogozuacik/concept-drift-datasets-scikit-multiflow",
        notes="503 chess.com games of one player (2007-2010) in time order.",
    ),
]

REGISTRY: dict[str, DatasetSpec] = {spec.name: spec for spec in _SPECS}


def _size(n_bytes: int) -> str:
    return f"{n_bytes / 1024:.0f} KiB" if n_bytes < 1024**2 else f"{n_bytes / 1024**2:.2f} MiB"


def describe_registry(
    data_dir: str | os.PathLike | None = None, registry: Mapping[str, DatasetSpec] | None = None
) -> str:
    """The registry as a text table: size, shape, positive label and where each file is.

    This is the output of ``streamboost datasets``. The "file" column tells where the file
    would be read from (``data_dir``, ``$STREAMBOOST_DATA``, ``bundled`` or ``cache``), or
    ``download`` if it would be fetched, or ``missing``. Presence is a cheap check (the file
    exists); the sha256 is verified when the file is opened.

    Parameters
    ----------
    data_dir
        Directory searched first, as in ``load``.
    registry
        The registry to describe (default: ``REGISTRY``).

    Examples
    --------
    >>> from streamboost.datasets import describe_registry
    >>> table = describe_registry()
    >>> print(table.splitlines()[0])
    name  rows  features  positive  order  size  file
    >>> [line.split()[-1] for line in table.splitlines() if line.startswith("phishing")]
    ['bundled']

    """
    from .files import download_url, locate

    registry = REGISTRY if registry is None else registry
    header = ("name", "rows", "features", "positive", "order", "size", "file")
    rows = [header]
    for spec in registry.values():
        where = locate(spec, data_dir)
        positive = f"{spec.positive} ({spec.n_positive}/{spec.n_rows})"
        order = "time" if spec.time_ordered else "shuffle"
        rows.append(
            (spec.name, f"{spec.n_rows:,}", str(spec.n_features), positive, order,
             _size(spec.size), _where(where, download_url(spec)))
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    right = {1, 2, 5}
    lines = [
        "  ".join(
            cell.rjust(w) if i in right and row is not header else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
    return "\n".join(lines)


def _where(found: tuple[str, Path] | None, url: str | None) -> str:
    if found is not None:
        return found[0]
    return "download" if url else "missing"


def _package_data_dir() -> Path:
    return Path(__file__).resolve().parent / "data"
