#include "owed.h"

#include <string.h>

void owed_add_ready(owed_answers *o)
{
    o->readies++;
}

bool owed_take_ready(owed_answers *o)
{
    if (o->readies == 0) return false;
    o->readies--;
    return true;
}

void owed_add_act(owed_answers *o, uint64_t id)
{
    if (o->n_ids == OWED_MAX_IDS) {
        memmove(o->ids, o->ids + 1, (OWED_MAX_IDS - 1) * sizeof *o->ids);
        o->n_ids--;
    }
    o->ids[o->n_ids++] = id;
}

bool owed_take_act(owed_answers *o, uint64_t id)
{
    for (int i = 0; i < o->n_ids; i++) {
        if (o->ids[i] != id) continue;
        o->n_ids -= i + 1;
        memmove(o->ids, o->ids + i + 1, (size_t)o->n_ids * sizeof *o->ids);
        return true;
    }
    return false;
}

void owed_forget_acts(owed_answers *o)
{
    o->n_ids = 0;
}
