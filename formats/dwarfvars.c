// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parameters and locals in scope at an address (see dwarfvars.h).
 *
 * The walk goes down from the CU's subprogram that holds the address,
 * through the lexical blocks and inlined subroutines that hold it, the
 * way formats/dwarflines.c builds the inline chain (so both count the
 * same levels).  Each level's DW_TAG_formal_parameter and DW_TAG_variable
 * children are copied out with their type described and the location
 * expression valid at the address picked: an exprloc, or the entry of a
 * location list (our own reader of .debug_loclists and .debug_loc, from
 * the mapping).  Inlined and out-of-line instances of inline functions
 * name their variables through DW_AT_abstract_origin; a parameter the
 * abstract instance has and the concrete one lacks is optimized out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cursor.h"
#include "dwarflines.h"
#include "dwarfpriv.h"
#include "dwarfvars.h"

enum {
	MAX_DEPTH = 64,		/* nested blocks and inline levels */
	MAX_VARS = 4096,	/* per level */
	MAX_ENUMS = 8192,
	MAX_TYPE_DEPTH = 16,
	TYPE_LEN = 256,
};

/* A level being built, with the abstract origins of its variables. */
struct level {
	struct oc_dwscope s;
	size_t cap;
	Dwarf_Off *origins;	/* per var: its DW_AT_abstract_origin, or 0 */
	Dwarf_Off origin;	/* the level's own abstract origin, or 0 */
};

struct walk {
	struct oc_dwarf *d;
	struct dw_cu *cu;
	uint64_t addr;
	unsigned long budget;	/* DIEs visited, against malformed trees */
	struct level levels[MAX_DEPTH];
	size_t nr_levels;
	bool nomem;
	/* CU attributes for location lists */
	uint64_t cu_base;
	bool have_addr_base, have_loclists_base;
	Dwarf_Off addr_base, loclists_base;
};

static void dealloc_err(struct oc_dwarf *d, Dwarf_Error *de)
{
	if (*de)
		dwarf_dealloc(d->dbg, *de, DW_DLA_ERROR);
	*de = NULL;
}

/*
 * One libdwarf query of a DIE where failure means "none": @fn(@die, ...,
 * &value, &error) gives the value, or 0 (and the error is freed).
 */
#define DIE_QUERY(d, type, fn, die, ...)                                     \
	({                                                                   \
		Dwarf_Error de_ = NULL;                                      \
		type v_ = 0;                                                 \
		if (fn(die, ##__VA_ARGS__, &v_, &de_) != DW_DLV_OK)          \
			v_ = 0;                                              \
		dealloc_err(d, &de_);                                        \
		v_;                                                          \
	})

static Dwarf_Half die_tag(struct oc_dwarf *d, Dwarf_Die die)
{
	return DIE_QUERY(d, Dwarf_Half, dwarf_tag, die);
}

static Dwarf_Off die_off(struct oc_dwarf *d, Dwarf_Die die)
{
	return DIE_QUERY(d, Dwarf_Off, dwarf_dieoffset, die);
}

static bool has_attr(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at)
{
	return DIE_QUERY(d, Dwarf_Bool, dwarf_hasattr, die, at);
}

static const char *die_name(struct oc_dwarf *d, Dwarf_Die die)
{
	return DIE_QUERY(d, char *, dwarf_diename, die);
}

static Dwarf_Unsigned die_bytesize(struct oc_dwarf *d, Dwarf_Die die)
{
	return DIE_QUERY(d, Dwarf_Unsigned, dwarf_bytesize, die);
}

static Dwarf_Off ref_off(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Off off;

	return oc_dw_attr_offset(d, die, at, &off) ? off : 0;
}

static bool flag_attr(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Bool yes = false;

	if (dwarf_attr(die, at, &attr, &de) == DW_DLV_OK) {
		if (dwarf_formflag(attr, &yes, &de) != DW_DLV_OK)
			yes = false;
		dwarf_dealloc_attribute(attr);
	}
	dealloc_err(d, &de);
	return yes;
}

static Dwarf_Die offdie(struct oc_dwarf *d, Dwarf_Off off)
{
	Dwarf_Error de = NULL;
	Dwarf_Die die = NULL;

	if (!off || dwarf_offdie_b(d->dbg, off, true, &die, &de) != DW_DLV_OK)
		die = NULL;
	dealloc_err(d, &de);
	return die;
}

/*
 * The DIE that holds attribute @at for @die: @die itself or one of its
 * abstract origins (a few hops).  The result is @die or a new DIE the
 * caller deallocates; NULL if none has it.
 */
static Dwarf_Die with_attr(struct oc_dwarf *d, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Die cur = die;

	for (int hop = 0; hop < 4 && cur; hop++) {
		Dwarf_Die next;

		if (has_attr(d, cur, at))
			return cur;
		next = oc_dw_die_ref(d, cur, DW_AT_abstract_origin);
		cur = oc_dw_die_hop(die, cur, next);
	}
	oc_dw_die_let_go(die, cur);
	return NULL;
}

/* --- types ------------------------------------------------------------ */

static void cat(char *buf, size_t size, const char *s)
{
	size_t n = strlen(buf);

	if (n < size)
		snprintf(buf + n, size - n, "%s", s);
}

static Dwarf_Die type_of(struct oc_dwarf *d, Dwarf_Die die)
{
	return oc_dw_die_ref(d, die, DW_AT_type);
}

static uint64_t array_count(struct oc_dwarf *d, Dwarf_Die sub, bool *known)
{
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Signed sv;
	Dwarf_Unsigned uv;
	bool count = has_attr(d, sub, DW_AT_count);
	Dwarf_Half at = count ? DW_AT_count : DW_AT_upper_bound;

	*known = false;
	if (dwarf_attr(sub, at, &attr, &de) != DW_DLV_OK) {
		dealloc_err(d, &de);
		return 0;
	}
	if (dwarf_formudata(attr, &uv, &de) == DW_DLV_OK) {
		*known = true;
	} else {
		dealloc_err(d, &de);
		if (dwarf_formsdata(attr, &sv, &de) == DW_DLV_OK) {
			/* an upper bound of -1: a zero-length array */
			uv = (uint64_t)sv;
			*known = true;
		}
	}
	dwarf_dealloc_attribute(attr);
	dealloc_err(d, &de);
	if (!*known)
		return 0;
	return count ? uv : uv + 1;
}

/* "[4][2]" of an array type's subranges */
static void array_dims(struct oc_dwarf *d, Dwarf_Die arr, char *buf,
		       size_t size, uint64_t *elems_ret, bool *all_known)
{
	struct dw_children it;
	uint64_t elems = 1;
	int n = 0;

	*all_known = true;
	for (Dwarf_Die c = oc_dw_child_first(&it, d, arr); c && n < 16;
	     c = oc_dw_child_next(&it)) {
		char dim[32];
		bool known;

		if (die_tag(d, c) == DW_TAG_subrange_type) {
			uint64_t k = array_count(d, c, &known);

			if (known) {
				snprintf(dim, sizeof(dim), "[%" PRIu64 "]", k);
				elems = k && elems > UINT64_MAX / k ? 0 : elems * k;
			} else {
				snprintf(dim, sizeof(dim), "[]");
				*all_known = false;
			}
			cat(buf, size, dim);
			n++;
		}
	}
	oc_dw_child_end(&it);
	if (!n) {
		cat(buf, size, "[]");
		*all_known = false;
	}
	*elems_ret = elems;
}

static void type_name(struct oc_dwarf *d, Dwarf_Die type, const char *decl,
		      char *out, size_t size, int depth);

/* "(int, char *)" of a subroutine type */
static void params_text(struct oc_dwarf *d, Dwarf_Die fn, char *buf,
			size_t size, int depth)
{
	struct dw_children it;
	int n = 0;

	cat(buf, size, "(");
	for (Dwarf_Die c = oc_dw_child_first(&it, d, fn); c && n < 32;
	     c = oc_dw_child_next(&it)) {
		Dwarf_Half tag = die_tag(d, c);

		if (tag == DW_TAG_formal_parameter) {
			char p[TYPE_LEN] = "";
			Dwarf_Die t = type_of(d, c);

			type_name(d, t, "", p, sizeof(p), depth + 1);
			if (t)
				dwarf_dealloc_die(t);
			cat(buf, size, n ? ", " : "");
			cat(buf, size, p);
			n++;
		} else if (tag == DW_TAG_unspecified_parameters) {
			cat(buf, size, n ? ", ..." : "...");
			n++;
		}
	}
	oc_dw_child_end(&it);
	if (!n && flag_attr(d, fn, DW_AT_prototyped))
		cat(buf, size, "void");
	cat(buf, size, ")");
}

/* Is @type (qualifiers looked through) a pointer? */
static bool is_pointer(struct oc_dwarf *d, Dwarf_Die type)
{
	Dwarf_Die cur = type;
	bool ret = false;

	for (int i = 0; i < MAX_TYPE_DEPTH && cur; i++) {
		Dwarf_Half tag = die_tag(d, cur);
		Dwarf_Die next;

		if (tag == DW_TAG_pointer_type) {
			ret = true;
			break;
		}
		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			break;
		next = type_of(d, cur);
		cur = oc_dw_die_hop(type, cur, next);
	}
	oc_dw_die_let_go(type, cur);
	return ret;
}

/*
 * A C declaration of @decl with type @type, the usual inside-out way:
 * pointers prefix the declarator, arrays and function parameters
 * suffix it (parenthesized after a pointer), qualifiers of a pointer
 * follow its '*'.  "char *const", "void (*)(struct timer_list *)",
 * "int (*)[4]".
 */
static void type_name(struct oc_dwarf *d, Dwarf_Die type, const char *decl,
		      char *out, size_t size, int depth)
{
	char nd[TYPE_LEN];
	const char *name, *kw = NULL, *q = NULL;
	Dwarf_Die target;
	Dwarf_Half tag;

	out[0] = '\0';
	if (depth > MAX_TYPE_DEPTH) {
		snprintf(out, size, "...");
		return;
	}
	if (!type) {
		snprintf(out, size, "void%s%s", *decl ? " " : "", decl);
		return;
	}
	tag = die_tag(d, type);
	switch (tag) {
	case DW_TAG_structure_type: kw = "struct "; break;
	case DW_TAG_union_type: kw = "union "; break;
	case DW_TAG_enumeration_type: kw = "enum "; break;
	case DW_TAG_class_type: kw = "class "; break;
	case DW_TAG_const_type: q = "const"; break;
	case DW_TAG_volatile_type: q = "volatile"; break;
	case DW_TAG_restrict_type: q = "restrict"; break;
	case DW_TAG_atomic_type: q = "_Atomic"; break;
	default: break;
	}
	switch (tag) {
	case DW_TAG_base_type:
	case DW_TAG_typedef:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_class_type:
	case DW_TAG_unspecified_type:
		name = die_name(d, type);
		snprintf(out, size, "%s%s%s%s", kw ? kw : "",
			 name ? name : "<anonymous>", *decl ? " " : "", decl);
		return;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		snprintf(nd, sizeof(nd), "%s%s",
			 tag == DW_TAG_pointer_type ? "*" : "&", decl);
		target = type_of(d, type);
		type_name(d, target, nd, out, size, depth + 1);
		break;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		target = type_of(d, type);
		if (target && die_tag(d, target) == DW_TAG_array_type) {
			/* a qualified array is an array of qualified elements
			 * (C11 6.7.3p9); gcc qualifies the elements too */
			Dwarf_Die elem = type_of(d, target);
			bool same = elem && die_tag(d, elem) == tag;

			if (elem)
				dwarf_dealloc_die(elem);
			if (same) {
				type_name(d, target, decl, out, size, depth + 1);
				break;
			}
		}
		if (target && is_pointer(d, target)) {
			snprintf(nd, sizeof(nd), "%s%s%s", q, *decl ? " " : "",
				 decl);
			type_name(d, target, nd, out, size, depth + 1);
		} else {
			char inner[TYPE_LEN];

			type_name(d, target, decl, inner, sizeof(inner),
				  depth + 1);
			snprintf(out, size, "%s ", q);
			cat(out, size, inner);
		}
		break;
	case DW_TAG_array_type: {
		char dims[64] = "";
		uint64_t elems;
		bool known;

		array_dims(d, type, dims, sizeof(dims), &elems, &known);
		if (*decl == '*' || *decl == '&')
			snprintf(nd, sizeof(nd), "(%s)%s", decl, dims);
		else
			snprintf(nd, sizeof(nd), "%s%s", decl, dims);
		target = type_of(d, type);
		type_name(d, target, nd, out, size, depth + 1);
		break;
	}
	case DW_TAG_subroutine_type: {
		char params[TYPE_LEN] = "";

		params_text(d, type, params, sizeof(params), depth);
		/* a declarator past TYPE_LEN is cut, and says so */
		if ((*decl ? snprintf(nd, sizeof(nd), "(%s)%s", decl, params) :
			     snprintf(nd, sizeof(nd), "%s", params)) >= (int)sizeof(nd))
			memcpy(nd + sizeof(nd) - 4, "...", 4);
		target = type_of(d, type);
		type_name(d, target, nd, out, size, depth + 1);
		break;
	}
	default:
		snprintf(out, size, "?%s%s", *decl ? " " : "", decl);
		return;
	}
	if (target)
		dwarf_dealloc_die(target);
}

static bool enumerators(struct oc_dwarf *d, Dwarf_Die en, struct oc_dwvar *v)
{
	Dwarf_Error de = NULL;
	struct dw_children it;
	size_t cap = 0;
	bool ok = true;

	for (Dwarf_Die c = oc_dw_child_first(&it, d, en);
	     c && ok && v->nr_enums < MAX_ENUMS; c = oc_dw_child_next(&it)) {
		if (die_tag(d, c) == DW_TAG_enumerator) {
			Dwarf_Attribute attr;
			const char *name = die_name(d, c);
			Dwarf_Signed sv = 0;
			Dwarf_Unsigned uv;
			bool have = false;

			if (dwarf_attr(c, DW_AT_const_value, &attr, &de) ==
			    DW_DLV_OK) {
				if (!v->enum_signed &&
				    dwarf_formudata(attr, &uv, &de) == DW_DLV_OK) {
					sv = (Dwarf_Signed)uv;
					have = true;
				} else {
					dealloc_err(d, &de);
					have = dwarf_formsdata(attr, &sv, &de) ==
					       DW_DLV_OK;
				}
				dwarf_dealloc_attribute(attr);
			}
			dealloc_err(d, &de);
			if (have && name) {
				struct oc_dwenumerator *n = oc_array_grow(
					v->enums, v->nr_enums, 1, &cap,
					sizeof(*n), 16);

				if (!n) {
					ok = false;
					continue;
				}
				v->enums = n;
				v->enums[v->nr_enums].name = strdup(name);
				if (!v->enums[v->nr_enums].name) {
					ok = false;
					continue;
				}
				v->enums[v->nr_enums++].value = sv;
			}
		}
	}
	oc_dw_child_end(&it);
	dealloc_err(d, &de);
	return ok;
}

/* enc, size and enumerators of @type; false on allocation failure */
static bool describe(struct oc_dwarf *d, Dwarf_Die type, struct oc_dwvar *v)
{
	Dwarf_Die cur = type;
	bool ok = true;

	v->enc = OC_DWENC_UNKNOWN;
	for (int i = 0; i < MAX_TYPE_DEPTH && cur; i++) {
		Dwarf_Half tag = die_tag(d, cur);
		Dwarf_Die next;
		Dwarf_Unsigned enc;

		switch (tag) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			next = type_of(d, cur);
			cur = oc_dw_die_hop(type, cur, next);
			continue;
		case DW_TAG_base_type:
			v->size = die_bytesize(d, cur);
			enc = oc_dw_die_udata(d, cur, DW_AT_encoding);
			switch (enc) {
			case DW_ATE_signed: v->enc = OC_DWENC_SIGNED; break;
			case DW_ATE_unsigned: v->enc = OC_DWENC_UNSIGNED; break;
			case DW_ATE_boolean: v->enc = OC_DWENC_BOOL; break;
			case DW_ATE_signed_char: v->enc = OC_DWENC_SIGNED_CHAR; break;
			case DW_ATE_unsigned_char: v->enc = OC_DWENC_UNSIGNED_CHAR; break;
			case DW_ATE_UTF: v->enc = OC_DWENC_UNSIGNED; break;
			case DW_ATE_float: v->enc = OC_DWENC_FLOAT; break;
			default: break;
			}
			break;
		case DW_TAG_pointer_type:
		case DW_TAG_reference_type:
			v->enc = OC_DWENC_POINTER;
			v->size = die_bytesize(d, cur);
			if (!v->size)
				v->size = 8;
			break;
		case DW_TAG_enumeration_type: {
			Dwarf_Die under = type_of(d, cur);

			v->enc = OC_DWENC_ENUM;
			v->size = die_bytesize(d, cur);
			v->enum_signed = true;
			/* gcc: DW_AT_type names the underlying int type */
			if (under) {
				struct oc_dwvar u = { 0 };

				ok = describe(d, under, &u);
				v->enum_signed = u.enc == OC_DWENC_SIGNED ||
						 u.enc == OC_DWENC_SIGNED_CHAR;
				dwarf_dealloc_die(under);
			}
			if (ok)
				ok = enumerators(d, cur, v);
			break;
		}
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_class_type:
			v->enc = OC_DWENC_COMPOSITE;
			v->size = die_bytesize(d, cur);
			break;
		case DW_TAG_array_type: {
			char dims[64] = "";
			uint64_t elems;
			bool known;
			Dwarf_Die elem = type_of(d, cur);
			struct oc_dwvar e = { 0 };

			v->enc = OC_DWENC_COMPOSITE;
			array_dims(d, cur, dims, sizeof(dims), &elems, &known);
			if (elem) {
				ok = describe(d, elem, &e);
				dwarf_dealloc_die(elem);
				for (size_t k = 0; k < e.nr_enums; k++)
					free(e.enums[k].name);
				free(e.enums);
			}
			v->size = known && e.size && elems <= UINT64_MAX / e.size ?
				  elems * e.size : 0;
			break;
		}
		default:
			break;
		}
		break;
	}
	oc_dw_die_let_go(type, cur);
	return ok;
}

/* --- locations ---------------------------------------------------------- */


int oc_dwarf_loclist_find(const uint8_t *list, size_t size, int version,
			  uint64_t base, const uint8_t *addrs,
			  size_t nr_addrs, uint64_t pc,
			  const uint8_t **expr_ret, size_t *len_ret)
{
	struct oc_cursor c;
	const uint8_t *dflt = NULL, *expr;
	size_t dflt_len = 0;

	oc_cursor_init(&c, list, size, "location list");
	for (int n = 0; n < DW_MAX_LIST_ENTRIES; n++) {
		uint64_t lo = 0, hi = 0, a, b, len;
		bool range = true;

		if (version < 5) {
			uint16_t len16;

			/* DWARF 2-4 .debug_loc: (begin, end) pairs */
			if (!oc_ok(oc_cursor_le64(&c, &a)) ||
			    !oc_ok(oc_cursor_le64(&c, &b)))
				return -1;
			if (!a && !b)
				return 0;
			if (a == UINT64_MAX) {
				base = b;
				continue;
			}
			if (!oc_ok(oc_cursor_le16(&c, &len16)))
				return -1;
			len = len16;
			lo = base + a;
			hi = base + b;
		} else {
			uint8_t kind;

			if (!oc_ok(oc_cursor_u8(&c, &kind)))
				return -1;
			switch (kind) {
			case DW_LLE_end_of_list:
				if (dflt) {
					*expr_ret = dflt;
					*len_ret = dflt_len;
					return 1;
				}
				return 0;
			case DW_LLE_base_addressx:
				if (!oc_ok(oc_cursor_uleb128(&c, &a)) ||
				    !oc_dw_addrx(addrs, nr_addrs, a, &base))
					return -1;
				continue;
			case DW_LLE_startx_endx:
				if (!oc_dw_uleb2(&c, &a, &b) ||
				    !oc_dw_addrx(addrs, nr_addrs, a, &lo) ||
				    !oc_dw_addrx(addrs, nr_addrs, b, &hi))
					return -1;
				break;
			case DW_LLE_startx_length:
				if (!oc_dw_uleb2(&c, &a, &b) ||
				    !oc_dw_addrx(addrs, nr_addrs, a, &lo))
					return -1;
				hi = lo + b;
				break;
			case DW_LLE_offset_pair:
				if (!oc_dw_uleb2(&c, &a, &b))
					return -1;
				lo = base + a;
				hi = base + b;
				break;
			case DW_LLE_default_location:
				range = false;
				break;
			case DW_LLE_base_address:
				if (!oc_ok(oc_cursor_le64(&c, &base)))
					return -1;
				continue;
			case DW_LLE_start_end:
				if (!oc_ok(oc_cursor_le64(&c, &lo)) ||
				    !oc_ok(oc_cursor_le64(&c, &hi)))
					return -1;
				break;
			case DW_LLE_start_length:
				if (!oc_ok(oc_cursor_le64(&c, &lo)) ||
				    !oc_ok(oc_cursor_uleb128(&c, &b)))
					return -1;
				hi = lo + b;
				break;
			case 0x09:	/* DW_LLE_GNU_view_pair: two views */
				if (!oc_dw_uleb2(&c, &a, &b))
					return -1;
				continue;
			default:
				return -1;
			}
			if (!oc_ok(oc_cursor_uleb128(&c, &len)))
				return -1;
		}
		/* the entry's expression */
		if (!oc_ok(oc_cursor_bytes(&c, len, &expr)))
			return -1;
		if (!range) {
			dflt = expr;
			dflt_len = len;
		} else if (lo <= pc && pc < hi) {
			*expr_ret = expr;
			*len_ret = len;
			return 1;
		}
	}
	return -1;
}

static bool set_expr(struct oc_dwvar *v, enum oc_dwvar_loc loc,
		     const void *bytes, size_t len)
{
	v->loc = loc;
	v->expr_len = len;
	v->expr = malloc(len ? len : 1);
	if (!v->expr)
		return false;
	if (len)
		memcpy(v->expr, bytes, len);
	return true;
}

static bool set_bad(struct oc_dwvar *v, const char *why)
{
	v->loc = OC_DWVAR_BAD;
	v->why = strdup(why);
	return v->why != NULL;
}

/*
 * The expression attribute @at (DW_AT_location, DW_AT_frame_base) of
 * @die gives for the walk's address, into @v (loc, expr).  False only on
 * allocation failure.
 */
static bool location(struct walk *w, Dwarf_Die die, Dwarf_Half at,
		     struct oc_dwvar *v)
{
	struct oc_dwarf *d = w->d;
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Half form = 0;
	bool ok = true;
	int res;

	res = dwarf_attr(die, at, &attr, &de);
	if (res != DW_DLV_OK) {
		dealloc_err(d, &de);
		v->loc = OC_DWVAR_NONE;
		return true;
	}
	if (dwarf_whatform(attr, &form, &de) != DW_DLV_OK) {
		ok = set_bad(v, "unreadable location attribute");
		goto out;
	}
	if (form == DW_FORM_exprloc) {
		Dwarf_Unsigned len;
		Dwarf_Ptr ptr;

		if (dwarf_formexprloc(attr, &len, &ptr, &de) != DW_DLV_OK)
			ok = set_bad(v, "unreadable DW_FORM_exprloc");
		else
			ok = set_expr(v, OC_DWVAR_EXPR, ptr, len);
	} else if (form == DW_FORM_block1 || form == DW_FORM_block2 ||
		   form == DW_FORM_block4 || form == DW_FORM_block) {
		Dwarf_Block *blk;

		if (dwarf_formblock(attr, &blk, &de) != DW_DLV_OK) {
			ok = set_bad(v, "unreadable location block");
		} else {
			ok = set_expr(v, OC_DWVAR_EXPR, blk->bl_data, blk->bl_len);
			dwarf_dealloc(d->dbg, blk, DW_DLA_BLOCK);
		}
	} else if (form == DW_FORM_sec_offset || form == DW_FORM_data4 ||
		   form == DW_FORM_data8 || form == DW_FORM_loclistx) {
		Dwarf_Unsigned off = 0;
		const uint8_t *list, *addrs = NULL, *expr;
		size_t size, nr_addrs = 0, len;
		bool v5 = w->cu->version >= 5;
		const char *sec = v5 ? ".debug_loclists" : ".debug_loc";

		if (form == DW_FORM_sec_offset) {
			Dwarf_Off o;

			if (dwarf_global_formref(attr, &o, &de) != DW_DLV_OK) {
				ok = set_bad(v, "unreadable location list offset");
				goto out;
			}
			off = o;
		} else if (dwarf_formudata(attr, &off, &de) != DW_DLV_OK) {
			ok = set_bad(v, "unreadable location list offset");
			goto out;
		}
		/* DWARF 5: an index into the offsets after the list
		 * table's header (32-bit DWARF) */
		if (form == DW_FORM_loclistx &&
		    (!w->have_loclists_base ||
		     !oc_dw_list_index(d, sec, w->loclists_base, off, 4, &off))) {
			ok = set_bad(v, "bad DW_FORM_loclistx");
			goto out;
		}
		list = oc_dw_section_at(d, sec, off, &size);
		if (!list) {
			ok = set_bad(v, "location list outside its section");
			goto out;
		}
		if (w->have_addr_base) {
			addrs = oc_dw_section_at(d, ".debug_addr", w->addr_base,
						 &nr_addrs);
			nr_addrs = addrs ? nr_addrs / 8 : 0;
		}
		res = oc_dwarf_loclist_find(list, size, v5 ? 5 : 4, w->cu_base,
					    addrs, nr_addrs, w->addr, &expr, &len);
		if (res < 0)
			ok = set_bad(v, "malformed location list");
		else if (res == 0)
			v->loc = OC_DWVAR_NONE;
		else
			ok = set_expr(v, OC_DWVAR_EXPR, expr, len);
	} else {
		char why[64];

		snprintf(why, sizeof(why), "location in form 0x%x", form);
		ok = set_bad(v, why);
	}
out:
	dwarf_dealloc_attribute(attr);
	dealloc_err(d, &de);
	return ok;
}

/* DW_AT_const_value as little-endian bytes */
static bool const_value(struct walk *w, Dwarf_Die die, struct oc_dwvar *v)
{
	struct oc_dwarf *d = w->d;
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Half form = 0;
	Dwarf_Unsigned uv;
	Dwarf_Signed sv;
	uint8_t buf[8];
	size_t n = 8;
	bool ok = true;

	if (dwarf_attr(die, DW_AT_const_value, &attr, &de) != DW_DLV_OK) {
		dealloc_err(d, &de);
		v->loc = OC_DWVAR_NONE;
		return true;
	}
	if (dwarf_whatform(attr, &form, &de) != DW_DLV_OK)
		form = 0;
	switch (form) {
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4:
	case DW_FORM_data8: case DW_FORM_udata:
		n = form == DW_FORM_data1 ? 1 : form == DW_FORM_data2 ? 2 :
		    form == DW_FORM_data4 ? 4 : 8;
		if (dwarf_formudata(attr, &uv, &de) != DW_DLV_OK) {
			ok = set_bad(v, "unreadable DW_AT_const_value");
			break;
		}
		/* a data form has no sign of its own: the type's */
		if (n < 8 && (uv >> (8 * n - 1)) & 1 &&
		    (v->enc == OC_DWENC_SIGNED || v->enc == OC_DWENC_SIGNED_CHAR ||
		     (v->enc == OC_DWENC_ENUM && v->enum_signed)))
			uv |= ~(uint64_t)0 << (8 * n);
		memcpy(buf, &uv, 8);
		ok = set_expr(v, OC_DWVAR_CONST, buf, 8);
		break;
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(attr, &sv, &de) != DW_DLV_OK) {
			ok = set_bad(v, "unreadable DW_AT_const_value");
			break;
		}
		memcpy(buf, &sv, 8);
		ok = set_expr(v, OC_DWVAR_CONST, buf, 8);
		break;
	case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4:
	case DW_FORM_block: {
		Dwarf_Block *blk;

		if (dwarf_formblock(attr, &blk, &de) != DW_DLV_OK) {
			ok = set_bad(v, "unreadable DW_AT_const_value");
			break;
		}
		ok = set_expr(v, OC_DWVAR_CONST, blk->bl_data, blk->bl_len);
		dwarf_dealloc(d->dbg, blk, DW_DLA_BLOCK);
		break;
	}
	default:
		ok = set_bad(v, "DW_AT_const_value in an unsupported form");
		break;
	}
	dwarf_dealloc_attribute(attr);
	dealloc_err(d, &de);
	return ok;
}

/* --- the walk ----------------------------------------------------------- */

static void var_free(struct oc_dwvar *v)
{
	free(v->name);
	free(v->type);
	free(v->composite);
	for (size_t i = 0; i < v->nr_enums; i++)
		free(v->enums[i].name);
	free(v->enums);
	free(v->expr);
	free(v->why);
}

static struct oc_dwvar *level_add(struct walk *w, struct level *l,
				  Dwarf_Off origin)
{
	struct oc_dwvar *v;

	if (l->s.nr_vars == MAX_VARS)
		return NULL;
	if (l->s.nr_vars == l->cap) {
		/* the two arrays side by side, one capacity */
		size_t cap = l->cap, ocap = l->cap;
		struct oc_dwvar *n = oc_array_grow(l->s.vars, l->s.nr_vars, 1,
						   &cap, sizeof(*n), 8);
		Dwarf_Off *o;

		if (!n) {
			w->nomem = true;
			return NULL;
		}
		l->s.vars = n;
		o = oc_array_grow(l->origins, l->s.nr_vars, 1, &ocap,
				  sizeof(*o), 8);
		if (!o) {
			w->nomem = true;
			return NULL;
		}
		l->origins = o;
		l->cap = cap;
	}
	l->origins[l->s.nr_vars] = origin;
	v = &l->s.vars[l->s.nr_vars++];
	memset(v, 0, sizeof(*v));
	return v;
}

/* A DW_TAG_formal_parameter or DW_TAG_variable into level @l. */
static void add_var(struct walk *w, struct level *l, Dwarf_Die die,
		    bool param, bool abstract_only)
{
	struct oc_dwarf *d = w->d;
	Dwarf_Die nd, td, type = NULL;
	struct oc_dwvar *v;
	const char *name;
	char tbuf[TYPE_LEN];
	bool ok;

	/* a declaration (extern in a block) has no storage of its own */
	if (flag_attr(d, die, DW_AT_declaration))
		return;
	v = level_add(w, l, abstract_only ? die_off(d, die) :
			    ref_off(d, die, DW_AT_abstract_origin));
	if (!v)
		return;
	v->param = param;
	nd = with_attr(d, die, DW_AT_name);
	name = nd ? die_name(d, nd) : NULL;
	v->name = name ? strdup(name) : NULL;
	if (nd && nd != die)
		dwarf_dealloc_die(nd);
	td = with_attr(d, die, DW_AT_type);
	if (td) {
		type = type_of(d, td);
		if (td != die)
			dwarf_dealloc_die(td);
	}
	type_name(d, type, "", tbuf, sizeof(tbuf), 0);
	v->type = strdup(type ? tbuf : "?");
	ok = v->type && (!name || v->name) && describe(d, type, v);
	if (ok && v->enc == OC_DWENC_COMPOSITE)
		ok = (v->composite = strdup(tbuf)) != NULL;
	if (type)
		dwarf_dealloc_die(type);
	if (!ok) {
		w->nomem = true;
		return;
	}
	if (abstract_only) {
		v->loc = OC_DWVAR_NONE;
		return;
	}
	if (has_attr(d, die, DW_AT_location)) {
		ok = location(w, die, DW_AT_location, v);
	} else {
		Dwarf_Die cd = with_attr(d, die, DW_AT_const_value);

		v->loc = OC_DWVAR_NONE;
		ok = true;
		if (cd) {
			ok = const_value(w, cd, v);
			if (cd != die)
				dwarf_dealloc_die(cd);
		}
	}
	if (!ok)
		w->nomem = true;
}

/*
 * The children of @parent (the level's DIE or a lexical block in it)
 * into level @l; the first inlined subroutine holding the address is
 * returned in *inl (the caller deallocates it).
 */
static void scan_children(struct walk *w, struct level *l, Dwarf_Die parent,
			  int depth, Dwarf_Die *inl)
{
	struct oc_dwarf *d = w->d;
	struct dw_children it;

	if (depth > MAX_DEPTH)
		return;
	for (Dwarf_Die c = oc_dw_child_first(&it, d, parent);
	     c && w->budget && !w->nomem; c = oc_dw_child_next(&it)) {
		Dwarf_Half tag = die_tag(d, c);

		w->budget--;
		switch (tag) {
		case DW_TAG_formal_parameter:
			add_var(w, l, c, true, false);
			break;
		case DW_TAG_variable:
			add_var(w, l, c, false, false);
			break;
		case DW_TAG_lexical_block:
			if (oc_dw_die_contains(d, w->cu, c, w->addr))
				scan_children(w, l, c, depth + 1, inl);
			break;
		case DW_TAG_inlined_subroutine:
			if (!*inl && oc_dw_die_contains(d, w->cu, c, w->addr))
				*inl = oc_dw_child_take(&it);
			break;
		default:
			break;
		}
	}
	oc_dw_child_end(&it);
}

/* the abstract instance's parameters the concrete one does not have */
static void missing_params(struct walk *w, struct level *l)
{
	struct oc_dwarf *d = w->d;
	Dwarf_Die o = offdie(d, l->origin);
	struct dw_children it;

	if (!o)
		return;
	for (Dwarf_Die c = oc_dw_child_first(&it, d, o);
	     c && w->budget && !w->nomem; c = oc_dw_child_next(&it)) {
		w->budget--;
		if (die_tag(d, c) == DW_TAG_formal_parameter) {
			Dwarf_Off off = die_off(d, c);
			bool seen = false;

			for (size_t i = 0; i < l->s.nr_vars && !seen; i++)
				seen = l->origins[i] == off;
			if (!seen)
				add_var(w, l, c, true, true);
		}
	}
	oc_dw_child_end(&it);
	dwarf_dealloc_die(o);
}

/* parameters first (stable), then the locals */
static bool sort_params_first(struct level *l)
{
	size_t n = l->s.nr_vars, k = 0;
	struct oc_dwvar *tmp;

	if (n < 2)
		return true;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return false;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (l->s.vars[i].param == !pass)
				tmp[k++] = l->s.vars[i];
	memcpy(l->s.vars, tmp, n * sizeof(*tmp));
	free(tmp);
	return true;
}

static void walk_level(struct walk *w, Dwarf_Die die)
{
	struct level *l;
	Dwarf_Die inl = NULL;
	const char *fn;

	if (w->nr_levels == MAX_DEPTH) {
		dwarf_dealloc_die(die);
		return;
	}
	l = &w->levels[w->nr_levels++];
	fn = oc_dw_die_function_name(w->d, die);
	if (fn && !(l->s.function = strdup(fn))) {
		w->nomem = true;
		dwarf_dealloc_die(die);
		return;
	}
	l->origin = ref_off(w->d, die, DW_AT_abstract_origin);
	scan_children(w, l, die, 0, &inl);
	if (l->origin && !w->nomem)
		missing_params(w, l);
	if (!w->nomem && !sort_params_first(l))
		w->nomem = true;
	dwarf_dealloc_die(die);
	if (inl && !w->nomem)
		walk_level(w, inl);
	else if (inl)
		dwarf_dealloc_die(inl);
}

static void cu_attrs(struct walk *w)
{
	struct oc_dwarf *d = w->d;
	Dwarf_Error de = NULL;
	Dwarf_Addr lo;

	if (dwarf_lowpc(w->cu->die, &lo, &de) == DW_DLV_OK)
		w->cu_base = lo;
	dealloc_err(d, &de);
	w->have_addr_base = oc_dw_attr_offset(d, w->cu->die, DW_AT_addr_base,
					&w->addr_base);
	w->have_loclists_base = oc_dw_attr_offset(d, w->cu->die, DW_AT_loclists_base,
					    &w->loclists_base);
}

void oc_dwvars_free(struct oc_dwvars *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nr_scopes; i++) {
		for (size_t k = 0; k < v->scopes[i].nr_vars; k++)
			var_free(&v->scopes[i].vars[k]);
		free(v->scopes[i].vars);
		free(v->scopes[i].function);
	}
	free(v->scopes);
	free(v->frame_base);
	free(v->frame_base_why);
	free(v);
}

struct oc_error *oc_dwarf_vars(struct oc_dwarf *d, uint64_t addr,
			       struct oc_dwvars **ret)
{
	struct oc_error *err;
	struct walk *w;
	struct oc_dwvars *out;
	struct dw_children it;
	Dwarf_Die sub = NULL;

	*ret = NULL;
	out = calloc(1, sizeof(*out));
	w = calloc(1, sizeof(*w));
	if (!out || !w) {
		free(out);
		free(w);
		return &oc_enomem;
	}
	d = oc_dw_cu_view(d, addr);
	w->d = d;
	w->addr = addr;
	w->budget = 1UL << 22;
	err = oc_dw_find_cu(d, addr, &w->cu);
	if (err || !w->cu)
		goto done;
	cu_attrs(w);
	/* the top-level subprogram holding the address */
	for (Dwarf_Die c = oc_dw_child_first(&it, d, w->cu->die);
	     c && w->budget--; c = oc_dw_child_next(&it))
		if (die_tag(d, c) == DW_TAG_subprogram &&
		    oc_dw_die_contains(d, w->cu, c, addr)) {
			sub = oc_dw_child_take(&it);
			break;
		}
	oc_dw_child_end(&it);
	if (!sub)
		goto done;
	{
		struct oc_dwvar fb = { 0 };

		if (!location(w, sub, DW_AT_frame_base, &fb)) {
			w->nomem = true;
		} else if (fb.loc == OC_DWVAR_EXPR) {
			out->frame_base = fb.expr;
			out->frame_base_len = fb.expr_len;
			fb.expr = NULL;
		} else if (fb.loc == OC_DWVAR_BAD) {
			out->frame_base_why = fb.why;
			fb.why = NULL;
		}
		var_free(&fb);
	}
	if (!w->nomem)
		walk_level(w, sub);
	else
		dwarf_dealloc_die(sub);
	if (w->nomem)
		goto done;
	/* innermost first, like oc_dwarf_lookup()'s chain */
	out->scopes = calloc(w->nr_levels ? w->nr_levels : 1,
			     sizeof(*out->scopes));
	if (!out->scopes) {
		w->nomem = true;
		goto done;
	}
	for (size_t i = 0; i < w->nr_levels; i++) {
		struct level *l = &w->levels[w->nr_levels - 1 - i];

		out->scopes[i] = l->s;
		out->scopes[i].inlined = w->nr_levels - 1 - i > 0;
		memset(&l->s, 0, sizeof(l->s));
	}
	out->nr_scopes = w->nr_levels;
done:
	for (size_t i = 0; i < w->nr_levels; i++) {
		for (size_t k = 0; k < w->levels[i].s.nr_vars; k++)
			var_free(&w->levels[i].s.vars[k]);
		free(w->levels[i].s.vars);
		free(w->levels[i].s.function);
		free(w->levels[i].origins);
	}
	if (w->nomem && !err)
		err = &oc_enomem;
	free(w);
	if (err) {
		oc_dwvars_free(out);
		return err;
	}
	*ret = out;
	return NULL;
}

/* ---- global variables ------------------------------------------------ */

enum { MAX_GLOBALS = 1 << 22 };
/* dw_global.addr of an extern's declaration */
#define DW_GLOBAL_DECL UINT64_MAX

/* @die's DW_AT_location when it is DW_OP_addr ADDR alone (a static
 * location: every C global and file static that is not per-CPU) */
static bool static_location(struct oc_dwarf *d, Dwarf_Die die, uint64_t *addr)
{
	Dwarf_Error de = NULL;
	Dwarf_Attribute attr;
	Dwarf_Half form = 0;
	Dwarf_Unsigned len = 0;
	Dwarf_Ptr ptr = NULL;
	bool ok = false;

	if (dwarf_attr(die, DW_AT_location, &attr, &de) != DW_DLV_OK) {
		dealloc_err(d, &de);
		return false;
	}
	if (dwarf_whatform(attr, &form, &de) == DW_DLV_OK && form == DW_FORM_exprloc &&
	    dwarf_formexprloc(attr, &len, &ptr, &de) == DW_DLV_OK && len == 9 &&
	    ((const uint8_t *)ptr)[0] == DW_OP_addr) {
		struct oc_cursor c;

		oc_cursor_init(&c, (const uint8_t *)ptr + 1, 8, "DW_OP_addr");
		ok = oc_ok(oc_cursor_le64(&c, addr));
	}
	dealloc_err(d, &de);
	dwarf_dealloc_attribute(attr);
	return ok;
}

/* One CU's top-level variables into d->globals; false when out of memory */
static bool index_cu_globals(struct oc_dwarf *d, Dwarf_Die cu_die)
{
	struct dw_children it;
	bool ok = true;

	for (Dwarf_Die c = oc_dw_child_first(&it, d, cu_die); c && ok;
	     c = oc_dw_child_next(&it)) {
		Dwarf_Die named = NULL;
		const char *name;
		struct dw_global *g;
		uint64_t addr = 0;

		if (die_tag(d, c) != DW_TAG_variable)
			continue;
		/* an extern's declaration types what the linker alone
		 * defines (jiffies = jiffies_64, vmlinux.lds.S): kept as a
		 * declaration, for when no definition is at the address */
		if (!static_location(d, c, &addr)) {
			if (!flag_attr(d, c, DW_AT_declaration) || !flag_attr(d, c, DW_AT_external))
				continue;
			addr = DW_GLOBAL_DECL;
		}
		/* a definition after a declaration in the same CU names its
		 * declaration: the name and the type are there (DWARF 5
		 * 2.13.2) */
		name = die_name(d, c);
		if (!name && (named = oc_dw_die_ref(d, c, DW_AT_specification)))
			name = die_name(d, named);
		if (name && d->nr_globals < MAX_GLOBALS) {
			g = oc_array_grow(d->globals, d->nr_globals, 1, &d->cap_globals,
					  sizeof(*g), 4096);
			if (g) {
				d->globals = g;
				g = &d->globals[d->nr_globals];
				g->name = strdup(name);
				g->addr = addr;
				g->type_die = die_off(d, named && !has_attr(d, c, DW_AT_type) ?
							      named : c);
				ok = g->name != NULL;
				d->nr_globals += ok;
			} else {
				ok = false;
			}
		}
		if (named)
			dwarf_dealloc_die(named);
	}
	oc_dw_child_end(&it);
	return ok;
}

static int cmp_global(const void *a, const void *b)
{
	const struct dw_global *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : (x->addr > y->addr) - (x->addr < y->addr);
}

/* Every CU's top level, once (every CU visited: oc_dw_next_cu()) */
static struct oc_error *index_globals(struct oc_dwarf *d)
{
	struct oc_error *err = NULL;
	bool nomem = false;
	Dwarf_Half ver;
	Dwarf_Die die;

	d->globals_done = true;
	for (unsigned long n = 0; oc_dw_next_cu(d, n, &ver, &die, &err) > 0; n++) {
		if (die && !nomem && n < DW_MAX_CUS)
			nomem = !index_cu_globals(d, die);
		if (die)
			dwarf_dealloc_die(die);
	}
	if (d->nr_globals)
		qsort(d->globals, d->nr_globals, sizeof(*d->globals), cmp_global);
	if (nomem && !err)
		err = &oc_enomem;
	d->globals_broken = err != NULL;
	return err;
}

struct oc_error *oc_dwarf_global_type(struct oc_dwarf *d, const char *name,
				      uint64_t addr, char *buf, size_t size,
				      uint64_t *size_ret)
{
	struct oc_error *err;
	size_t lo = 0, hi;
	Dwarf_Error de = NULL;
	Dwarf_Die die = NULL, type;

	if (!d->globals_done && (err = index_globals(d)))
		return err;
	if (d->globals_broken)	/* an index cut short is not searched */
		return oc_error_format(OC_ERR_FORMAT, "%s: .debug_info could not be read whole", d->path);
	hi = d->nr_globals;
	while (lo < hi) {	/* the first of @name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(d->globals[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the definition at @addr, else an extern's declaration (sorted
	 * last of the name's entries) */
	for (; lo < d->nr_globals && !strcmp(d->globals[lo].name, name); lo++)
		if (d->globals[lo].addr == addr || d->globals[lo].addr == DW_GLOBAL_DECL)
			break;
	if (lo >= d->nr_globals || strcmp(d->globals[lo].name, name))
		return oc_error_format(OC_ERR_LOOKUP, "no variable %s at 0x%" PRIx64 " in the DWARF",
				       name, addr);
	if (dwarf_offdie_b(d->dbg, d->globals[lo].type_die, true, &die, &de) != DW_DLV_OK) {
		dealloc_err(d, &de);
		return oc_error_format(OC_ERR_FORMAT, "%s: the DIE of %s (0x%" PRIx64 ") is unreadable",
				       d->path, name, (uint64_t)d->globals[lo].type_die);
	}
	type = type_of(d, die);
	type_name(d, type, "", buf, size, 0);
	*size_ret = 0;
	if (type) {
		struct oc_dwvar v = { 0 };

		*size_ret = describe(d, type, &v) ? v.size : 0;
		var_free(&v);
		dwarf_dealloc_die(type);
	}
	dwarf_dealloc_die(die);
	return NULL;
}
